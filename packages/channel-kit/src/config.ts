import { z } from "@chorus/core";

/**
 * The config keys every channel client shares, with one set of defaults: spread into a channel's
 * schema (`z.object({ ...retryOptionsShape, token: … })`).
 */
export const retryOptionsShape = {
  /** Retries of one request after a 5xx, a network error or a short rate limit. */
  retries: z.number().int().min(0).max(10).default(2),
  /** Longest Retry-After the client waits out itself; a longer one fails at once with E_RATE_LIMITED. */
  maxRetryAfterMs: z.number().int().min(0).max(600_000).default(10_000),
  /** One HTTP request gives up after this long (and counts as a network error). */
  timeoutMs: z.number().int().min(100).max(600_000).default(15_000),
};

/** The reconnect backoff of a long-lived connection, as config keys with their defaults. */
export const reconnectOptionsShape = {
  /** First wait before reconnecting after a failure; doubles with each failure. */
  reconnectMinMs: z.number().int().min(1).max(600_000).default(500),
  /** Longest wait between reconnect attempts. */
  reconnectMaxMs: z.number().int().min(1).max(3_600_000).default(30_000),
};
