import { ChorusError, RateLimitedError } from "./errors.js";

/** How many times a plugin retries a platform call, and the longest `Retry-After` it waits out. */
export interface RetryPolicy {
  retries: number;
  maxRetryAfterMs: number;
}

/**
 * The wait before retrying a failed platform call (`attempt` counts from 0), or undefined to give
 * up: a rate limit is waited out when short enough (a long one would hold the agent's turn
 * hostage), a retryable `E_PLATFORM` backs off exponentially (100 ms doubling, at most 2 s).
 */
export function retryDelay(error: unknown, attempt: number, policy: RetryPolicy): number | undefined {
  if (attempt >= policy.retries) return undefined;
  if (error instanceof RateLimitedError) {
    return error.retryAfterMs <= policy.maxRetryAfterMs ? error.retryAfterMs : undefined;
  }
  const transient = error instanceof ChorusError && error.code === "E_PLATFORM" && error.retryable;
  return transient ? Math.min(2_000, 100 * 2 ** attempt) : undefined;
}

/** `Retry-After` as delay-seconds or an HTTP date (RFC 9110 §10.2.3) in ms; missing or broken → 1 s. */
export function parseRetryAfter(header: string | null, now = Date.now()): number {
  if (header === null || header.trim() === "") return 1_000;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, Math.round(seconds * 1000));
  const date = Date.parse(header);
  return Number.isNaN(date) ? 1_000 : Math.max(0, date - now);
}

/** Resolves after `ms`, or earlier (without error) when `signal` aborts. */
export function abortableDelay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
