import type { BackoffPolicy } from "@chorus/channel-kit";
import { ChorusError } from "@chorus/core";

/** How a failed channel is restarted: 500 ms doubling to 60 s, half of each wait random. */
export const DEFAULT_RESTART_BACKOFF: BackoffPolicy = { initialMs: 500, maxMs: 60_000, jitter: 0.5 };

/**
 * The channel restart backoff: the default, with its first delay taken from `CHORUS_RESTART_BACKOFF_MS`
 * when set (tests and impatient operators); a value that is not a whole number of ms is an error.
 */
export function restartBackoffFromEnv(env: NodeJS.ProcessEnv = process.env): BackoffPolicy {
  const raw = env.CHORUS_RESTART_BACKOFF_MS?.trim();
  if (raw === undefined || raw === "") return DEFAULT_RESTART_BACKOFF;
  const initialMs = Number(raw);
  if (!/^\d+$/.test(raw) || initialMs < 1 || initialMs > DEFAULT_RESTART_BACKOFF.maxMs) {
    throw new ChorusError(
      "E_INVALID_INPUT",
      `CHORUS_RESTART_BACKOFF_MS must be a whole number of milliseconds from 1 to ${DEFAULT_RESTART_BACKOFF.maxMs}, got "${raw}"`,
      { hint: "Unset it to use the default (500 ms, doubling up to 60 s)." },
    );
  }
  return { ...DEFAULT_RESTART_BACKOFF, initialMs };
}

/** How often an account whose credentials were refused tries them again: every 10 minutes, one log line each. */
export const DEFAULT_AUTH_RETRY_MS = 10 * 60_000;

/**
 * The quiet retry of an account in state `failed`: the default, or `CHORUS_AUTH_RETRY_MS` when set
 * (tests); a value that is not a whole number of ms from 100 ms to a day is an error.
 */
export function authRetryFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.CHORUS_AUTH_RETRY_MS?.trim();
  if (raw === undefined || raw === "") return DEFAULT_AUTH_RETRY_MS;
  const ms = Number(raw);
  if (!/^\d+$/.test(raw) || ms < 100 || ms > 86_400_000) {
    throw new ChorusError(
      "E_INVALID_INPUT",
      `CHORUS_AUTH_RETRY_MS must be a whole number of milliseconds from 100 to 86400000, got "${raw}"`,
      { hint: "Unset it to use the default (10 minutes)." },
    );
  }
  return ms;
}
