import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { originOf, probeRequest, unreachable } from "./probe.js";

describe("probeRequest: one cheap request for chorus doctor", () => {
  const server = createServer((request, response) => {
    if (request.url === "/json") response.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    else response.writeHead(401).end("nope");
  });
  let base = "";
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("returns the status and the parsed body", async () => {
    const signal = AbortSignal.timeout(5000);
    expect(await probeRequest(`${base}/json`, { signal })).toEqual({ status: 200, body: { ok: true } });
    expect(await probeRequest(`${base}/secret-token/getMe`, { signal })).toEqual({ status: 401, body: "nope" });
  });

  it("a closed port: the network error's code, never the URL", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const answer = await probeRequest(`http://127.0.0.1:${port}/bot123:SECRET/getMe`, {
      signal: AbortSignal.timeout(5000),
    });
    expect(answer).toEqual({ error: "ECONNREFUSED" });
    expect(originOf(`http://127.0.0.1:${port}/bot123:SECRET/getMe`)).toBe(`http://127.0.0.1:${port}`);
    expect(unreachable("x", "ECONNREFUSED", "start it")).toEqual({
      ok: false,
      detail: "x is unreachable: ECONNREFUSED",
      fix: "start it",
    });
  });
});
