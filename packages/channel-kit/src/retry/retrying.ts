import { abortableDelay } from "./delay.js";
import { type RetryFacts, type RetryPolicy, retryDelay } from "./policy.js";

/** How `retrying` repeats one platform call. */
export interface RetryingOptions extends RetryPolicy, RetryFacts {
  /** The instance's lifetime (and the call's own): once aborted, nothing is retried. */
  signal?: AbortSignal;
  /** What to throw for the error that ended the attempts (the redacted error); the error itself by default. */
  fail?(error: unknown): unknown;
}

/**
 * Runs `attempt` until it succeeds or `retryDelay` gives up: rate limits waited out up to
 * `maxRetryAfterMs`, retryable platform errors backed off, a call that is not idempotent not
 * repeated after a network failure that may have reached the platform. For channels whose
 * platform client is a library (its own retries off): make `attempt` throw ChorusErrors.
 */
export async function retrying<T>(attempt: () => Promise<T>, options: RetryingOptions): Promise<T> {
  const { signal } = options;
  const fail = options.fail ?? ((error: unknown) => error);
  for (let attempts = 0; ; attempts++) {
    try {
      return await attempt();
    } catch (error) {
      const wait = retryDelay(error, attempts, options, { idempotent: options.idempotent });
      if (wait === undefined || signal?.aborted) throw fail(error);
      await abortableDelay(wait, signal);
      if (signal?.aborted) throw fail(error);
    }
  }
}
