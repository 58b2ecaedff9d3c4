import { describe, expect, it } from "vitest";
import { ChorusError, RateLimitedError } from "./errors.js";
import { abortableDelay, parseRetryAfter, retryDelay } from "./retry.js";

const policy = { retries: 2, maxRetryAfterMs: 5_000 };

describe("retryDelay", () => {
  it("waits out a short rate limit and gives up on a long one", () => {
    expect(retryDelay(new RateLimitedError("slow down", 1_500), 0, policy)).toBe(1_500);
    expect(retryDelay(new RateLimitedError("slow down", 60_000), 0, policy)).toBeUndefined();
  });

  it("backs off exponentially on retryable platform errors, capped at 2 s, and stops after `retries`", () => {
    const flaky = new ChorusError("E_PLATFORM", "502", { retryable: true });
    expect([0, 1].map((attempt) => retryDelay(flaky, attempt, policy))).toEqual([100, 200]);
    expect(retryDelay(flaky, 2, policy)).toBeUndefined();
    expect(retryDelay(flaky, 7, { retries: 10, maxRetryAfterMs: 0 })).toBe(2_000);
  });

  it("never retries what a retry cannot fix", () => {
    for (const error of [
      new ChorusError("E_AUTH", "bad token"),
      new ChorusError("E_PLATFORM", "refused", { retryable: false }),
      new Error("bug"),
    ]) {
      expect(retryDelay(error, 0, policy)).toBeUndefined();
    }
  });
});

describe("parseRetryAfter", () => {
  it("reads delay-seconds, an HTTP date, and falls back to 1 s", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter("3", now)).toBe(3_000);
    expect(parseRetryAfter("0.5", now)).toBe(500);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:10 GMT", now)).toBe(10_000);
    expect(parseRetryAfter("Wed, 31 Dec 2025 23:59:00 GMT", now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBe(1_000);
    expect(parseRetryAfter("soon", now)).toBe(1_000);
  });
});

describe("abortableDelay", () => {
  it("resolves at once when the signal aborts", async () => {
    const controller = new AbortController();
    const waiting = abortableDelay(60_000, controller.signal);
    controller.abort();
    await expect(waiting).resolves.toBeUndefined();
    await expect(abortableDelay(60_000, AbortSignal.abort())).resolves.toBeUndefined();
  });
});
