import { ChorusError } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { DEFAULT_RESTART_BACKOFF, restartBackoffFromEnv } from "./backoff.js";

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
