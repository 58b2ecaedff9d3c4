import { ChorusError, RateLimitedError } from "@chorus/core";

/** How many times a channel retries one platform call, and the longest `Retry-After` it waits out. */
export interface RetryPolicy {
  retries: number;
  maxRetryAfterMs: number;
}

/** What the caller knows about the call that failed. */
export interface RetryFacts {
  /** Repeating the call cannot do its work twice (reads, PUT/DELETE, calls with an idempotency key). */
  idempotent: boolean;
}

/** Network failures that prove the request never reached the platform. */
const NEVER_SENT = /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|ERR_INVALID_URL/;

/**
 * The wait before retrying a failed platform call (`attempt` counts from 0), or undefined to give
 * up: a rate limit is waited out when short enough (a long one would hold the agent's turn
 * hostage); a retryable `E_PLATFORM` backs off (100 ms doubling, at most 2 s), except a network
 * failure of a call that is not idempotent, which may have done its work (a message sent), unless
 * the failure proves the request never left.
 */
export function retryDelay(
  error: unknown,
  attempt: number,
  policy: RetryPolicy,
  facts: RetryFacts = { idempotent: true },
): number | undefined {
  if (attempt >= policy.retries) return undefined;
  if (error instanceof RateLimitedError) {
    return error.retryAfterMs <= policy.maxRetryAfterMs ? error.retryAfterMs : undefined;
  }
  if (!(error instanceof ChorusError) || error.code !== "E_PLATFORM" || !error.retryable) return undefined;
  if (!facts.idempotent && error.details?.network === true && !NEVER_SENT.test(causeText(error))) return undefined;
  return Math.min(2_000, 100 * 2 ** attempt);
}

/** The messages and codes of an error and its causes, for telling network failures apart. */
export function causeText(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth++) {
    const record = current as { code?: unknown; message?: unknown; cause?: unknown; error?: unknown };
    parts.push(String(record.code ?? ""), String(record.message ?? ""));
    current = record.cause ?? record.error;
  }
  return parts.join(" ");
}
