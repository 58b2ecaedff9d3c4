import { ChorusError } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { backoffDelay, DEFAULT_RESTART_BACKOFF, restartBackoffFromEnv, sleep, withTimeout } from "./backoff.js";

describe("backoffDelay", () => {
  const exact = { initialMs: 500, maxMs: 60_000, jitter: 0 };

  it("doubles with every attempt, starting at initialMs", () => {
    expect([1, 2, 3, 4, 5].map((attempt) => backoffDelay(attempt, exact))).toEqual([500, 1000, 2000, 4000, 8000]);
  });

  it("is capped at maxMs, however many attempts", () => {
    expect(backoffDelay(8, exact)).toBe(60_000);
    expect(backoffDelay(1000, exact)).toBe(60_000);
    expect(backoffDelay(3, { initialMs: 100, maxMs: 250, jitter: 0 })).toBe(250);
  });

  it("treats attempt 0 or less as the first attempt", () => {
    expect(backoffDelay(0, exact)).toBe(500);
    expect(backoffDelay(-3, exact)).toBe(500);
  });

  it("takes up to `jitter` of each delay off at random: the bounds are reached and never crossed", () => {
    const policy = { initialMs: 1000, maxMs: 60_000, jitter: 0.5 };
    expect(backoffDelay(1, policy, () => 0)).toBe(500);
    expect(backoffDelay(1, policy, () => 0.5)).toBe(750);
    expect(backoffDelay(1, policy, () => 0.999_999)).toBe(1000);
    expect(backoffDelay(3, policy, () => 0)).toBe(2000);
    for (let attempt = 1; attempt <= 12; attempt++) {
      const ceiling = Math.min(60_000, 1000 * 2 ** (attempt - 1));
      for (let i = 0; i < 200; i++) {
        const delay = backoffDelay(attempt, policy);
        expect(delay).toBeGreaterThanOrEqual(ceiling / 2);
        expect(delay).toBeLessThanOrEqual(ceiling);
      }
    }
  });

  it("with full jitter may wait nothing, never more than the capped delay", () => {
    const full = { initialMs: 200, maxMs: 1000, jitter: 1 };
    expect(backoffDelay(2, full, () => 0)).toBe(0);
    expect(backoffDelay(10, full, () => 0.999_999)).toBe(1000);
  });
});

describe("restartBackoffFromEnv", () => {
  it("is the default (500 ms doubling to 60 s, half jitter) when CHORUS_RESTART_BACKOFF_MS is unset or empty", () => {
    expect(restartBackoffFromEnv({})).toEqual({ initialMs: 500, maxMs: 60_000, jitter: 0.5 });
    expect(restartBackoffFromEnv({ CHORUS_RESTART_BACKOFF_MS: " " })).toBe(DEFAULT_RESTART_BACKOFF);
  });

  it("takes the first delay from CHORUS_RESTART_BACKOFF_MS", () => {
    expect(restartBackoffFromEnv({ CHORUS_RESTART_BACKOFF_MS: "800" })).toEqual({
      initialMs: 800,
      maxMs: 60_000,
      jitter: 0.5,
    });
  });

  it.each(["fast", "0", "-5", "1.5", "60001", "1e3"])(
    "refuses CHORUS_RESTART_BACKOFF_MS=%s, naming the variable",
    (value) => {
      let caught: unknown;
      try {
        restartBackoffFromEnv({ CHORUS_RESTART_BACKOFF_MS: value });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ChorusError);
      expect(caught).toMatchObject({ code: "E_INVALID_INPUT" });
      expect((caught as Error).message).toContain(`CHORUS_RESTART_BACKOFF_MS must be a whole number of milliseconds`);
      expect((caught as Error).message).toContain(`"${value}"`);
    },
  );
});

describe("sleep", () => {
  it("resolves after the delay", async () => {
    const started = performance.now();
    await sleep(30);
    expect(performance.now() - started).toBeGreaterThanOrEqual(28);
  });

  it("resolves at once when its signal aborts, or was aborted already", async () => {
    const controller = new AbortController();
    const started = performance.now();
    const pending = sleep(60_000, controller.signal);
    controller.abort();
    await pending;
    await sleep(60_000, controller.signal);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe("withTimeout", () => {
  it("resolves like the promise when it settles in time", async () => {
    await expect(withTimeout(Promise.resolve(42), 1000, "too slow")).resolves.toBe(42);
    await expect(withTimeout(Promise.reject(new Error("own failure")), 1000, "too slow")).rejects.toThrow(
      "own failure",
    );
  });

  it("rejects with the message when the promise does not settle in time", async () => {
    await expect(withTimeout(new Promise(() => {}), 20, "stop took over 20 ms")).rejects.toThrow(
      "stop took over 20 ms",
    );
  });
});
