import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isBytesBody } from "./body.js";
import { json } from "./responses.js";
import { createFakeServer } from "./server.js";
import type { FakeServer } from "./server-types.js";

describe("request log", () => {
  let server: FakeServer;

  beforeEach(async () => {
    server = createFakeServer();
    server.route("*", "*", (ctx) => json(200, { ok: true, body: ctx.body }));
    await server.start();
  });

  afterEach(async () => {
    await server.close();
  });

  it("records a JSON request with query, headers, raw and parsed body, status and time", async () => {
    const before = Date.now();
    await fetch(`${server.url}/bot1/sendMessage?a=1&b=2&b=3`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bot x" },
      body: JSON.stringify({ chat_id: 42, text: "hi" }),
    });
    const [request] = server.requests;
    expect(request).toMatchObject({
      method: "POST",
      path: "/bot1/sendMessage",
      query: { a: "1", b: ["2", "3"] },
      rawBody: '{"chat_id":42,"text":"hi"}',
      body: { chat_id: 42, text: "hi" },
      status: 200,
    });
    expect(request?.headers.authorization).toBe("Bot x");
    expect(request?.at).toBeGreaterThanOrEqual(before);
    expect(request?.fault).toBeUndefined();
  });

  it("records a medium uploaded as itself (image/png): its bytes for the handler, its text for a test that reads it", async () => {
    const held: Buffer[] = [];
    server.route("POST", "/upload", (ctx) => {
      held.push(ctx.rawBody);
      return json(200, { size: ctx.rawBody.length });
    });
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x68, 0x69]);
    const answer = await fetch(`${server.url}/upload`, {
      method: "POST",
      headers: { "content-type": "image/png" },
      body: bytes,
    });
    expect(await answer.json()).toEqual({ size: 8 });
    expect([...(held[0] ?? [])]).toEqual([...bytes]);
    const [request] = server.requests;
    expect(request?.rawBody).toBe(Buffer.from(bytes).toString("utf8"));
    expect(request?.body).toBe(Buffer.from(bytes).toString("utf8"));
    expect(request).toMatchObject({ method: "POST", path: "/upload", status: 200 });
  });

  it("tells bytes bodies from bodies it parses", () => {
    for (const type of ["image/png", "application/octet-stream", "audio/ogg; codecs=opus", "application/pdf"])
      expect(isBytesBody(type), type).toBe(true);
    for (const type of [
      undefined,
      "",
      "application/json",
      "application/json; charset=utf-8",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "text/plain",
      "application/xml",
    ])
      expect(isBytesBody(type), String(type)).toBe(false);
  });

  it("parses a form-urlencoded body into an object (repeated keys → arrays)", async () => {
    await fetch(`${server.url}/form`, { method: "POST", body: new URLSearchParams("a=1&tag=x&tag=y") });
    expect(server.requests[0]?.body).toEqual({ a: "1", tag: ["x", "y"] });
    expect(server.requests[0]?.rawBody).toBe("a=1&tag=x&tag=y");
  });

  it("parses a multipart body into fields and file summaries", async () => {
    const form = new FormData();
    form.append("chat_id", "7");
    form.append("photo", new Blob([new Uint8Array(5)], { type: "image/png" }), "cat.png");
    await fetch(`${server.url}/sendPhoto`, { method: "POST", body: form });
    expect(server.requests[0]?.body).toEqual({
      chat_id: "7",
      photo: { filename: "cat.png", type: "image/png", size: 5 },
    });
  });

  it("parses an untyped JSON-looking body and keeps other text raw", async () => {
    await fetch(`${server.url}/a`, { method: "POST", body: '{"x":1}', headers: { "content-type": "" } });
    await fetch(`${server.url}/b`, { method: "POST", body: "just words" });
    await fetch(`${server.url}/c`, {
      method: "POST",
      body: "{broken",
      headers: { "content-type": "application/json" },
    });
    expect(server.requests.map((r) => r.body)).toEqual([{ x: 1 }, "just words", "{broken"]);
  });

  it("gives the handler the parsed body too", async () => {
    const res = await fetch(`${server.url}/form`, { method: "POST", body: new URLSearchParams("a=1") });
    expect(await res.json()).toEqual({ ok: true, body: { a: "1" } });
  });

  it("filters with requestsTo and forgets with clearRequests", async () => {
    await fetch(`${server.url}/bot1/getMe`);
    await fetch(`${server.url}/bot1/sendMessage`, { method: "POST", body: "{}" });
    await fetch(`${server.url}/bot1/sendMessage`, { method: "POST", body: "{}" });
    expect(server.requestsTo("POST", "/bot:token/sendMessage")).toHaveLength(2);
    expect(server.requestsTo("*", /getMe$/)).toHaveLength(1);
    expect(server.requestsTo("GET", "/bot:token/sendMessage")).toHaveLength(0);
    server.clearRequests();
    expect(server.requests).toEqual([]);
  });

  it("returns a snapshot, not the live log", async () => {
    const snapshot = server.requests;
    await fetch(`${server.url}/x`);
    expect(snapshot).toHaveLength(0);
    expect(server.requests).toHaveLength(1);
  });
});

describe("body size limit", () => {
  it("answers 413 past maxBodyBytes, records it, and accepts a body at the limit", async () => {
    const server = createFakeServer({ maxBodyBytes: 1024 });
    let handled = 0;
    server.route("POST", "/upload", () => {
      handled += 1;
      return json(200, { ok: true });
    });
    await server.start();
    try {
      const tooBig = await fetch(`${server.url}/upload`, { method: "POST", body: "x".repeat(2048) });
      expect(tooBig.status).toBe(413);
      expect(await tooBig.json()).toMatchObject({ error: "body too large", limit: 1024 });
      const atLimit = await fetch(`${server.url}/upload`, { method: "POST", body: "x".repeat(1024) });
      expect(atLimit.status).toBe(200);
      expect(handled).toBe(1);
      expect(server.requests.map((r) => r.status)).toEqual([413, 200]);
    } finally {
      await server.close();
    }
  });
});
