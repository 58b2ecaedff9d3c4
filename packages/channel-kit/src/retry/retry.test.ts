import { ChorusError, RateLimitedError } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { backoffDelay, Reconnect } from "./backoff.js";
import { abortableDelay, withTimeout } from "./delay.js";
import { retryDelay } from "./policy.js";
import { parseRetryAfter } from "./retry-after.js";
import { retrying } from "./retrying.js";

const policy = { retries: 2, maxRetryAfterMs: 10_000 };
const platform = (details?: Record<string, unknown>, cause?: unknown) =>
  new ChorusError("E_PLATFORM", "down", { retryable: true, ...(details ? { details } : {}), cause });

describe("retryDelay", () => {
  it("waits out a rate limit up to maxRetryAfterMs", () => {
    expect(retryDelay(new RateLimitedError("slow", 3_000), 0, policy)).toBe(3_000);
    expect(retryDelay(new RateLimitedError("slow", 30_000), 0, policy)).toBeUndefined();
  });

  it("backs off retryable platform errors, 100 ms doubling, and stops after `retries`", () => {
    expect([0, 1].map((attempt) => retryDelay(platform(), attempt, policy))).toEqual([100, 200]);
    expect(retryDelay(platform(), 2, policy)).toBeUndefined();
    expect(retryDelay(platform(), 5, { retries: 10, maxRetryAfterMs: 0 })).toBe(2_000);
  });

  it("never retries other codes or plain errors", () => {
    expect(retryDelay(new ChorusError("E_AUTH", "no"), 0, policy)).toBeUndefined();
    expect(retryDelay(new ChorusError("E_PLATFORM", "no", { retryable: false }), 0, policy)).toBeUndefined();
    expect(retryDelay(new Error("bug"), 0, policy)).toBeUndefined();
  });

  it("does not repeat a call that is not idempotent after a network failure, unless it never left", () => {
    const lost = platform({ network: true }, new Error("socket hang up"));
    const refused = platform({ network: true }, Object.assign(new Error("connect"), { code: "ECONNREFUSED" }));
    expect(retryDelay(lost, 0, policy, { idempotent: false })).toBeUndefined();
    expect(retryDelay(refused, 0, policy, { idempotent: false })).toBe(100);
    expect(retryDelay(lost, 0, policy, { idempotent: true })).toBe(100);
    expect(retryDelay(platform(), 0, policy, { idempotent: false })).toBe(100);
  });
});

describe("parseRetryAfter", () => {
  it("reads delay-seconds and HTTP dates; missing or broken is 1 s", () => {
    expect(parseRetryAfter("2")).toBe(2_000);
    expect(parseRetryAfter("0.5")).toBe(500);
    expect(parseRetryAfter("Wed, 21 Oct 2015 07:28:10 GMT", Date.parse("Wed, 21 Oct 2015 07:28:00 GMT"))).toBe(10_000);
    expect(parseRetryAfter(null)).toBe(1_000);
    expect(parseRetryAfter("soon")).toBe(1_000);
    expect(parseRetryAfter("-3")).toBe(0);
  });
});

describe("backoffDelay and Reconnect", () => {
  it("doubles from initialMs up to maxMs, with jitter taking at most its share off", () => {
    const exact = { initialMs: 500, maxMs: 4_000, jitter: 0 };
    expect([1, 2, 3, 4, 5].map((a) => backoffDelay(a, exact))).toEqual([500, 1000, 2000, 4000, 4000]);
    expect(backoffDelay(1, { initialMs: 1000, maxMs: 1000, jitter: 0.5 }, () => 0)).toBe(500);
  });

  it("counts failures, keeps the problem for the status, honours a server's wait, and starts over on success", () => {
    const reconnect = new Reconnect({ initialMs: 100, maxMs: 1_000, jitter: 0 });
    expect(reconnect.failed("ECONNREFUSED")).toBe(100);
    expect(reconnect.failed("ECONNREFUSED")).toBe(200);
    expect(reconnect.failed("429", 5_000)).toBe(5_000);
    expect([reconnect.failures, reconnect.problem]).toEqual([3, "429"]);
    expect(reconnect.succeeded()).toBe(true);
    expect(reconnect.succeeded()).toBe(false);
    expect(reconnect.failed("again")).toBe(100);
  });
});

describe("abortableDelay", () => {
  it("resolves early when aborted", async () => {
    const abort = new AbortController();
    const waiting = abortableDelay(60_000, abort.signal);
    abort.abort();
    await expect(waiting).resolves.toBeUndefined();
  });
});

describe("withTimeout", () => {
  it("settles like the promise when it settles in time", async () => {
    await expect(withTimeout(Promise.resolve(42), 1000, () => new Error("too slow"))).resolves.toBe(42);
    await expect(
      withTimeout(Promise.reject(new Error("own failure")), 1000, () => new Error("too slow")),
    ).rejects.toThrow("own failure");
  });

  it("rejects with the given error when the promise does not settle in time", async () => {
    await expect(withTimeout(new Promise(() => {}), 20, () => new Error("stop took over 20 ms"))).rejects.toThrow(
      "stop took over 20 ms",
    );
  });
});

describe("retrying", () => {
  const fast = { retries: 2, maxRetryAfterMs: 10_000, idempotent: true };

  it("repeats a retryable failure until it succeeds, and gives up after `retries`", async () => {
    let calls = 0;
    const flaky = () => (++calls < 3 ? Promise.reject(platform()) : Promise.resolve("ok"));
    await expect(retrying(flaky, fast)).resolves.toBe("ok");
    expect(calls).toBe(3);
    calls = 0;
    await expect(retrying(() => Promise.reject(platform({ n: ++calls })), fast)).rejects.toThrow("down");
    expect(calls).toBe(3);
  });

  it("throws what `fail` makes of the last error, at once for errors that are not retried", async () => {
    let calls = 0;
    const auth = () => Promise.reject(new ChorusError("E_AUTH", `no ${++calls}`));
    await expect(
      retrying(auth, { ...fast, fail: (e) => new Error(`wrapped ${(e as Error).message}`) }),
    ).rejects.toThrow("wrapped no 1");
    expect(calls).toBe(1);
  });

  it("does not repeat a call that is not idempotent after a network failure that may have arrived", async () => {
    let calls = 0;
    const lost = () => Promise.reject(platform({ network: true }, new Error(`socket hang up ${++calls}`)));
    await expect(retrying(lost, { ...fast, idempotent: false })).rejects.toThrow("down");
    expect(calls).toBe(1);
  });

  it("stops waiting and retrying once the signal aborts", async () => {
    const abort = new AbortController();
    let calls = 0;
    const slow = () => {
      calls++;
      abort.abort();
      return Promise.reject(new RateLimitedError("slow", 5_000));
    };
    await expect(retrying(slow, { ...fast, signal: abort.signal })).rejects.toThrow("slow");
    expect(calls).toBe(1);
  });
});
