import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ChorusError } from "@chorus/core";
import { afterEach, describe, expect, it } from "vitest";
import { callGateway, isNotChorus, isUnreachable } from "./http-client.js";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A server on 127.0.0.1 that answers every request with `status`, `type` and `body`. */
async function answering(status: number, type: string, body: string): Promise<string> {
  const server = createServer((_request, response) => {
    response.writeHead(status, { "content-type": type });
    response.end(body);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function failure(url: string): Promise<ChorusError> {
  const error = await callGateway({ url, token: "t" }, "GET", "/v1/channels").catch((caught: unknown) => caught);
  if (!(error instanceof ChorusError)) throw new Error(`expected a ChorusError, got ${String(error)}`);
  return error;
}

describe("callGateway: who answers", () => {
  it("another program (a 404 page, or JSON that is not Chorus's) is named as not a Chorus gateway", async () => {
    const page = await answering(404, "text/html", "<html>Not Found</html>");
    const error = await failure(page);
    expect(isNotChorus(error)).toBe(true);
    expect(isUnreachable(error)).toBe(false);
    expect(error.message).toBe(
      `something that is not a Chorus gateway answers at ${page}: HTTP 404 without JSON to GET /v1/channels`,
    );
    expect(error.hint).toContain("gateway.port");
    expect(error.hint).toContain("--url");

    const json = await answering(401, "application/json", '{"error":"unauthorized"}');
    expect((await failure(json)).message).toBe(
      `something that is not a Chorus gateway answers at ${json}: HTTP 401 with JSON that is not a Chorus gateway's to GET /v1/channels`,
    );
  });

  it("a Chorus gateway's own refusal keeps its code and message, with the HTTP status", async () => {
    const url = await answering(
      401,
      "application/json",
      JSON.stringify({
        ok: false,
        error: { code: "E_AUTH", message: "missing or wrong bearer token (gateway.auth.token)" },
      }),
    );
    const error = await failure(url);
    expect(isNotChorus(error)).toBe(false);
    expect(error.code).toBe("E_AUTH");
    expect(error.message).toBe("missing or wrong bearer token (gateway.auth.token)");
    expect(error.details).toMatchObject({ status: 401, url });
  });

  it("a Chorus answer comes back as it is", async () => {
    const url = await answering(200, "application/json", JSON.stringify({ ok: true, channels: [] }));
    expect(await callGateway({ url, token: "t" }, "GET", "/v1/channels")).toEqual({ ok: true, channels: [] });
  });
});
