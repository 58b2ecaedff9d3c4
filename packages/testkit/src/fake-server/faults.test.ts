import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { faults } from "./faults.js";
import { json } from "./responses.js";
import { createFakeServer } from "./server.js";
import type { FakeServer } from "./server-types.js";

describe("fault injection", () => {
  let server: FakeServer;
  let handled: number;
  const send = (body: unknown = {}) =>
    fetch(`${server.url}/bot1/sendMessage`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  beforeEach(async () => {
    handled = 0;
    server = createFakeServer();
    server.route("POST", "/bot:token/sendMessage", () => {
      handled += 1;
      return json(200, { ok: true });
    });
    await server.start();
  });

  afterEach(async () => {
    await server.close();
  });

  it("rateLimit answers 429 with Retry-After and a default body, then lets requests through", async () => {
    server.inject(faults.rateLimit({ path: "/bot:token/sendMessage" }, 3));
    const limited = await send();
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("3");
    expect(await limited.json()).toEqual({ error: "rate limited", retry_after: 3 });
    expect((await send()).status).toBe(200);
    expect(handled).toBe(1);
    expect(server.requests.map((r) => [r.status, r.fault])).toEqual([
      [429, "rateLimit"],
      [200, undefined],
    ]);
  });

  it("rateLimit takes a platform body, status and extra headers", async () => {
    const telegram = { ok: false, error_code: 429, description: "Too Many Requests", parameters: { retry_after: 7 } };
    server.inject(
      faults.rateLimit({ method: "POST" }, 7, { body: telegram, headers: { "x-ratelimit-global": "true" } }),
    );
    server.inject(faults.rateLimit({}, 1, { status: 503 }));
    const first = await send();
    expect(first.headers.get("x-ratelimit-global")).toBe("true");
    expect(await first.json()).toEqual(telegram);
    const second = await send();
    expect([second.status, second.headers.get("retry-after")]).toEqual([503, "1"]);
  });

  it("serverError answers the given status and body without calling the handler", async () => {
    server.inject(faults.serverError({ path: "/bot:token/sendMessage" }, { status: 502, body: { ok: false } }));
    server.inject(faults.serverError({}));
    const bad = await send();
    expect([bad.status, await bad.json()]).toEqual([502, { ok: false }]);
    expect((await send()).status).toBe(500);
    expect(handled).toBe(0);
    expect(server.requests.map((r) => r.fault)).toEqual(["status", "status"]);
  });

  it("delay still lets the real handler answer", async () => {
    server.inject(faults.delay({ path: "/bot:token/sendMessage" }, 20));
    const res = await send();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    expect(handled).toBe(1);
    expect(server.requests[0]).toMatchObject({ status: 200, fault: "delay" });
  });

  it("malformed answers 200 JSON that does not parse", async () => {
    server.inject(faults.malformed({}));
    const res = await send();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    await expect(res.json()).rejects.toThrow(SyntaxError);
    expect(server.requests[0]?.fault).toBe("malformed");
  });

  it("reset destroys the connection so fetch rejects, and the next request works", async () => {
    server.inject(faults.reset({ path: "/bot:token/sendMessage" }));
    await expect(send()).rejects.toThrow(TypeError);
    expect(server.requests[0]).toMatchObject({ status: 0, fault: "reset" });
    expect((await send()).status).toBe(200);
    expect(handled).toBe(1);
  });

  it("hang never answers: a client timeout fires, and close() still finishes", async () => {
    server.inject(faults.hang({}));
    await expect(
      fetch(`${server.url}/bot1/sendMessage`, { method: "POST", signal: AbortSignal.timeout(100) }),
    ).rejects.toThrow(/timeout|abort/i);
    expect(server.requests[0]).toMatchObject({ status: 0, fault: "hang" });
    await expect(server.close()).resolves.toBeUndefined();
    expect(handled).toBe(0);
  });

  it("close() ends a hung request without the client timing out", async () => {
    server.inject(faults.hang({}));
    const pending = send();
    await server.waitForRequest({ path: "/bot:token/sendMessage" });
    await server.close();
    await expect(pending).rejects.toThrow(TypeError);
  });

  it("counts times, then stops; Infinity never runs out", async () => {
    server.inject(faults.serverError({}, { times: 2 }));
    expect(server.faults).toMatchObject([{ kind: "status", times: 2 }]);
    expect((await send()).status).toBe(500);
    expect(server.faults).toMatchObject([{ kind: "status", times: 1 }]);
    expect((await send()).status).toBe(500);
    expect(server.faults).toEqual([]);
    expect((await send()).status).toBe(200);

    server.inject(faults.malformed({ method: "GET" }, { times: Number.POSITIVE_INFINITY }));
    for (let i = 0; i < 3; i += 1) expect((await fetch(`${server.url}/any`)).status).toBe(200);
    expect(server.requests.slice(-3).map((r) => r.fault)).toEqual(["malformed", "malformed", "malformed"]);
    expect(server.faults).toMatchObject([{ kind: "malformed", times: Number.POSITIVE_INFINITY }]);
  });

  it("consumes faults in injection order", async () => {
    server.inject(faults.serverError({}, { status: 503 }));
    server.inject(faults.rateLimit({}, 2));
    server.inject(faults.serverError({}, { status: 502 }));
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await send()).status);
    expect(statuses).toEqual([503, 429, 502, 200]);
  });

  it("only hits matching requests: method, path and a predicate on the context", async () => {
    server.route("GET", "/bot:token/getMe", () => json(200, { ok: true }));
    server.inject(
      faults.serverError({
        method: "POST",
        path: "/bot:token/sendMessage",
        where: (ctx) => ctx.json<{ chat_id: number }>().chat_id === 42,
      }),
    );
    expect((await fetch(`${server.url}/bot1/getMe`)).status).toBe(200);
    expect((await send({ chat_id: 1 })).status).toBe(200);
    expect(server.faults).toHaveLength(1);
    expect((await send({ chat_id: 42 })).status).toBe(500);
    expect(server.faults).toEqual([]);
  });

  it("applies to paths without a route as well", async () => {
    server.inject(faults.rateLimit({ path: "/unrouted" }, 1));
    expect((await fetch(`${server.url}/unrouted`)).status).toBe(429);
    expect((await fetch(`${server.url}/unrouted`)).status).toBe(404);
  });

  it("rejects a non-positive times", () => {
    expect(() => server.inject(faults.reset({}, { times: 0 }))).toThrow(/positive integer/);
  });
});
