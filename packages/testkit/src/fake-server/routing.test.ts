import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HttpError } from "./errors.js";
import { empty, json, text } from "./responses.js";
import { createFakeServer } from "./server.js";
import type { FakeServer } from "./server-types.js";

describe("routing", () => {
  let server: FakeServer;

  beforeEach(async () => {
    server = createFakeServer();
    await server.start();
  });

  afterEach(async () => {
    await server.close();
  });

  it("listens on 127.0.0.1 with a real port", () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    expect(server.port).toBeGreaterThan(0);
  });

  it("passes params, query and headers to the handler and sends its JSON", async () => {
    server.route("GET", "/bot:token/:method", (ctx) =>
      json(200, { params: ctx.params, q: ctx.query.getAll("q"), agent: ctx.headers["x-agent"], method: ctx.method }),
    );
    const res = await fetch(`${server.url}/botABC/getMe?q=1&q=2`, { headers: { "x-agent": "t" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(await res.json()).toEqual({
      params: { token: "ABC", method: "getMe" },
      q: ["1", "2"],
      agent: "t",
      method: "GET",
    });
  });

  it("matches methods: exact, case-insensitive, and * for any", async () => {
    server.route("post", "/only-post", () => text(201, "created"));
    server.route("*", "/any", (ctx) => text(200, ctx.method));
    const posted = await fetch(`${server.url}/only-post`, { method: "POST" });
    expect(posted.status).toBe(201);
    expect(await posted.text()).toBe("created");
    expect((await fetch(`${server.url}/only-post`)).status).toBe(404);
    expect(await (await fetch(`${server.url}/any`, { method: "DELETE" })).text()).toBe("DELETE");
  });

  it("routes a * wildcard", async () => {
    server.route("GET", "/files/*", (ctx) => text(200, ctx.params["*"] ?? ""));
    expect(await (await fetch(`${server.url}/files/a/b.txt`)).text()).toBe("a/b.txt");
  });

  it("lets the newest route win and unregisters a route", async () => {
    server.route("GET", "/me", () => json(200, { who: "default" }));
    const remove = server.route("GET", "/me", () => json(200, { who: "override" }));
    expect(await (await fetch(`${server.url}/me`)).json()).toEqual({ who: "override" });
    remove();
    expect(await (await fetch(`${server.url}/me`)).json()).toEqual({ who: "default" });
  });

  it("sends custom headers, raw bodies, Buffers and empty answers", async () => {
    server.route("GET", "/raw", () => ({ status: 202, headers: { "X-Custom": "yes" }, body: "plain" }));
    server.route("GET", "/bin", () => ({ body: Buffer.from([1, 2, 3]) }));
    server.route("DELETE", "/thing", () => empty());
    const raw = await fetch(`${server.url}/raw`);
    expect([raw.status, raw.headers.get("x-custom"), await raw.text()]).toEqual([202, "yes", "plain"]);
    const bin = await fetch(`${server.url}/bin`);
    expect(bin.headers.get("content-type")).toBe("application/octet-stream");
    expect([...new Uint8Array(await bin.arrayBuffer())]).toEqual([1, 2, 3]);
    const deleted = await fetch(`${server.url}/thing`, { method: "DELETE" });
    expect(deleted.status).toBe(204);
  });

  it("supports async handlers that read the JSON body", async () => {
    server.route("POST", "/echo", async (ctx) => json(200, { got: ctx.json<{ a: number }>().a, text: ctx.text() }));
    const res = await fetch(`${server.url}/echo`, { method: "POST", body: '{"a":1}' });
    expect(await res.json()).toEqual({ got: 1, text: '{"a":1}' });
  });

  it("answers an unknown route with a 404 JSON body and records it", async () => {
    const res = await fetch(`${server.url}/nowhere?x=1`, { method: "PUT" });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "no route", method: "PUT", path: "/nowhere" });
    expect(server.requests).toMatchObject([{ method: "PUT", path: "/nowhere", query: { x: "1" }, status: 404 }]);
  });

  it("turns a throwing handler into a 500, recorded and listed in errors", async () => {
    server.route("POST", "/boom", () => {
      throw new Error("kaboom");
    });
    const res = await fetch(`${server.url}/boom`, { method: "POST" });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: "handler crashed", message: "kaboom" });
    expect(server.requests).toMatchObject([{ path: "/boom", status: 500 }]);
    expect(server.errors).toHaveLength(1);
    expect(server.errors[0]).toMatchObject({ method: "POST", path: "/boom", message: "kaboom" });
  });

  it("reports a handler that returns nothing as a crash", async () => {
    server.route("GET", "/nothing", (() => undefined) as never);
    expect((await fetch(`${server.url}/nothing`)).status).toBe(500);
    expect(server.errors[0]?.message).toMatch(/no FakeResponse/);
  });

  it("answers ctx.json() on a broken body with 400, not a crash", async () => {
    server.route("POST", "/json", (ctx) => json(200, ctx.json()));
    const res = await fetch(`${server.url}/json`, { method: "POST", body: "{nope" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid json" });
    expect(server.errors).toEqual([]);
    expect(server.requests[0]?.status).toBe(400);
  });

  it("answers a thrown HttpError with its status and body", async () => {
    server.route("GET", "/secret", () => {
      throw new HttpError(401, { ok: false, error_code: 401, description: "Unauthorized" });
    });
    const res = await fetch(`${server.url}/secret`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ ok: false, error_code: 401, description: "Unauthorized" });
    expect(server.errors).toEqual([]);
  });
});
