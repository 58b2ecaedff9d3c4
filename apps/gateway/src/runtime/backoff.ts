import { ChorusError } from "@chorus/core";

/** How retries are spaced: the first delay, the cap, and how much of each delay is random. */
export interface BackoffPolicy {
  initialMs: number;
  maxMs: number;
  /** 0..1: how much of each delay is random (full jitter at 1). */
  jitter: number;
}

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

/** Delay before retry number `attempt` (1-based): exponential, capped, with jitter. */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const exponential = Math.min(policy.maxMs, policy.initialMs * 2 ** Math.max(0, attempt - 1));
  const spread = exponential * policy.jitter;
  return Math.round(exponential - spread + random() * spread);
}

/** Resolves after `ms`, or early (without error) when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
  });
}

/** Resolves like `promise`, or rejects with `message` after `ms` (the timer never outlives it). */
export async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(message)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
