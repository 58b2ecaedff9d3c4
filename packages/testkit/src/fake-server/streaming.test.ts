import type { ServerResponse } from "node:http";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { outage } from "./faults.js";
import { createFakeServer } from "./server.js";
import type { FakeServer } from "./server-types.js";
import { waitFor } from "./wait.js";

describe("streamed answers", () => {
  let server: FakeServer;
  let open: ServerResponse[];

  beforeEach(async () => {
    open = [];
    server = createFakeServer();
    await server.start();
    server.route("GET", "/events", () => ({
      headers: { "content-type": "text/event-stream" },
      stream: (res) => {
        res.write("event: hello\ndata: 1\n\n");
        open.push(res);
      },
    }));
  });

  afterEach(async () => {
    await server.close();
  });

  it("sends the status and headers at once and the body as the fake writes it", async () => {
    const response = await fetch(`${server.url}/events`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    expect(decoder.decode((await reader.read()).value)).toBe("event: hello\ndata: 1\n\n");
    open[0]?.end("data: 2\n\n");
    let rest = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += decoder.decode(chunk.value);
    expect(rest).toBe("data: 2\n\n");
    expect(server.requestsTo("GET", "/events").map((r) => r.status)).toEqual([200]);
  });

  it("is cut off when the server closes, and faults still apply before it", async () => {
    server.inject({ ...outage("refuse"), times: 1 });
    expect((await fetch(`${server.url}/events`)).status).toBe(503);
    const response = await fetch(`${server.url}/events`);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await waitFor(() => open.length === 1);
    await server.close();
    await expect(reader.read()).rejects.toThrow();
  });
});
