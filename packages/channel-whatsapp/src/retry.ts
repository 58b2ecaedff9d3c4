import { abortableDelay, retryDelay } from "@chorus/channel-kit";
import type { ChorusError } from "@chorus/core";
import { toWhatsAppError } from "./errors.js";

/** How `withRetries` repeats a call. */
export interface RetryOptions {
  /** Retries after the first attempt. */
  readonly retries: number;
  /** Names the call in errors (`send`, `group lookup`). */
  readonly what: string;
  readonly signal?: AbortSignal;
  /** Which retryable failures to repeat (default: all that the kit's `retryDelay` allows). */
  readonly shouldRetry?: (error: ChorusError) => boolean;
}

/**
 * Runs a Baileys call, retrying transient failures a bounded number of times with the kit's
 * backoff. Rate limits are not waited out (WhatsApp gives no Retry-After): they fail at once
 * with `E_RATE_LIMITED`. Every failure leaves as a ChorusError.
 */
export async function withRetries<T>(call: () => Promise<T>, options: RetryOptions): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const failure = toWhatsAppError(error, options.what);
      const allowed = options.shouldRetry?.(failure) ?? true;
      const wait = allowed ? retryDelay(failure, attempt, { retries: options.retries, maxRetryAfterMs: 0 }) : undefined;
      if (wait === undefined || options.signal?.aborted) throw failure;
      await abortableDelay(wait, options.signal);
    }
  }
}
