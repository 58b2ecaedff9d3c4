import { setTimeout as sleep } from "node:timers/promises";
import { APICallError } from "@ai-sdk/provider";

/** The first wait before a retry; each next one doubles, unless the server says how long to wait. */
const FIRST_DELAY_MS = 2000;
/** A server's Retry-After is followed only below this (or below the backoff's own delay). */
const LONGEST_ANNOUNCED_WAIT_MS = 60_000;

/** A model call that failed on every attempt it was allowed, or failed for good after retries. */
export class ModelRetriesError extends Error {
  override readonly name = "ModelRetriesError";
  /** Each attempt's error, in order. */
  readonly errors: readonly unknown[];

  constructor(errors: readonly unknown[]) {
    super(`The model call failed ${errors.length} times`, { cause: errors.at(-1) });
    this.errors = errors;
  }

  /** What the last attempt failed with. */
  get lastError(): unknown {
    return this.errors.at(-1);
  }
}

/**
 * Calls `attempt`, and again after a wait while it fails with a retryable HTTP error (5xx, 408,
 * 429, a connection that failed) and `maxRetries` allows. The wait doubles from 2 s, or is the
 * server's `retry-after-ms`/`retry-after` when that is under a minute. An abort is never retried.
 */
export async function withModelRetries<T>(
  attempt: () => PromiseLike<T>,
  maxRetries: number,
  signal?: AbortSignal,
): Promise<T> {
  const errors: unknown[] = [];
  let delayMs = FIRST_DELAY_MS;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (isAbortError(error) || maxRetries === 0) throw error;
      errors.push(error);
      if (errors.length > maxRetries) throw new ModelRetriesError(errors);
      if (!(APICallError.isInstance(error) && error.isRetryable)) {
        if (errors.length === 1) throw error;
        throw new ModelRetriesError(errors);
      }
      await sleep(announcedWait(error.responseHeaders, delayMs) ?? delayMs, undefined, { signal });
      delayMs *= 2;
    }
  }
}

/** The wait a failed answer asks for, when it asks for one short enough to follow. */
function announcedWait(headers: Record<string, string> | undefined, backoffMs: number): number | undefined {
  if (!headers) return undefined;
  let ms = Number.parseFloat(headers["retry-after-ms"] ?? "");
  const retryAfter = headers["retry-after"];
  if (Number.isNaN(ms) && retryAfter) {
    const seconds = Number.parseFloat(retryAfter);
    ms = Number.isNaN(seconds) ? Date.parse(retryAfter) - Date.now() : seconds * 1000;
  }
  if (Number.isNaN(ms) || ms < 0) return undefined;
  return ms < LONGEST_ANNOUNCED_WAIT_MS || ms < backoffMs ? ms : undefined;
}

/** An error of an aborted call: the caller's signal, a timeout, or a response cut off by either. */
export function isAbortError(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.name === "AbortError" || error.name === "ResponseAborted" || error.name === "TimeoutError")
  );
}
