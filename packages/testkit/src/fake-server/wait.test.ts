import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WaitTimeoutError } from "./errors.js";
import { json } from "./responses.js";
import { createFakeServer } from "./server.js";
import type { FakeServer } from "./server-types.js";
import { eventually, waitFor } from "./wait.js";

describe("waitForRequest", () => {
  let server: FakeServer;

  beforeEach(async () => {
    server = createFakeServer();
    server.route("*", "*", () => json(200, { ok: true }));
    await server.start();
  });

  afterEach(async () => {
    await server.close();
  });

  it("resolves when a matching request arrives later", async () => {
    const waiting = server.waitForRequest({ method: "POST", path: "/bot:token/sendMessage" });
    await fetch(`${server.url}/bot1/getMe`);
    await fetch(`${server.url}/bot1/sendMessage`, { method: "POST", body: '{"text":"hello"}' });
    const request = await waiting;
    expect(request).toMatchObject({ path: "/bot1/sendMessage", body: { text: "hello" }, status: 200 });
  });

  it("resolves with an already recorded request, unless it is before `since`", async () => {
    await fetch(`${server.url}/ping`);
    expect((await server.waitForRequest({ path: "/ping" })).path).toBe("/ping");
    const since = server.requests.length;
    const next = server.waitForRequest({ path: "/ping", where: (r) => r.query.n === "2" }, { since });
    await fetch(`${server.url}/ping?n=2`);
    expect((await next).query).toEqual({ n: "2" });
  });

  it("accepts a predicate", async () => {
    const waiting = server.waitForRequest((r) => r.method === "PUT");
    await fetch(`${server.url}/x`, { method: "PUT" });
    expect((await waiting).method).toBe("PUT");
  });

  it("rejects on timeout with the match and the recorded requests in the message", async () => {
    await fetch(`${server.url}/bot1/getMe`);
    const error = await server
      .waitForRequest({ method: "POST", path: "/bot:token/sendMessage" }, { timeoutMs: 30 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    const message = (error as WaitTimeoutError).message;
    expect(message).toContain("POST /bot:token/sendMessage");
    expect(message).toContain("Recorded requests (1):");
    expect(message).toContain("#0 GET /bot1/getMe → 200");
    expect((error as WaitTimeoutError).code).toBe("E_TIMEOUT");
  });

  it("says so when nothing was recorded", async () => {
    await expect(server.waitForRequest({ path: "/x" }, { timeoutMs: 10 })).rejects.toThrow(/No requests were recorded/);
  });
});

describe("waitFor", () => {
  it("polls a sync predicate and resolves with its truthy value", async () => {
    let calls = 0;
    const value = await waitFor(
      () => {
        calls += 1;
        return calls >= 3 ? { calls } : undefined;
      },
      { intervalMs: 1 },
    );
    expect(value).toEqual({ calls: 3 });
  });

  it("polls an async predicate", async () => {
    let calls = 0;
    await expect(waitFor(async () => ++calls === 2, { intervalMs: 1 })).resolves.toBe(true);
  });

  it("rejects with a WaitTimeoutError naming what it waited for", async () => {
    await expect(waitFor(() => false, { timeoutMs: 20, intervalMs: 5, message: "the moon" })).rejects.toThrow(
      /Timed out after 20ms waiting for the moon/,
    );
  });
});

describe("eventually", () => {
  it("retries the assertion until it passes and returns its value", async () => {
    let attempts = 0;
    const result = await eventually(
      () => {
        attempts += 1;
        expect(attempts).toBeGreaterThanOrEqual(3);
        return "done";
      },
      { intervalMs: 1 },
    );
    expect([result, attempts]).toEqual(["done", 3]);
  });

  it("rethrows the last assertion error on timeout", async () => {
    let attempts = 0;
    const failing = eventually(
      () => {
        attempts += 1;
        throw new Error(`attempt ${attempts}`);
      },
      { timeoutMs: 20, intervalMs: 5 },
    );
    const error = await failing.catch((e: unknown) => e);
    expect(attempts).toBeGreaterThan(1);
    expect((error as Error).message).toBe(`attempt ${attempts}`);
  });
});
