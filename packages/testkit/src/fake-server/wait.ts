import { setTimeout as sleep } from "node:timers/promises";
import { WaitTimeoutError } from "./errors.js";

/** How long to keep trying and how often to look again. */
export interface WaitOptions {
  /** Give up after this long; default 5000. */
  timeoutMs?: number;
  /** Time between two checks; default 10. */
  intervalMs?: number;
  /** Describes what was awaited, for the timeout message. */
  message?: string;
}

type Falsy = false | 0 | 0n | "" | null | undefined;

/** Polls `predicate` until it returns a truthy value (which it resolves to) or the timeout passes. */
export async function waitFor<T>(
  predicate: () => T | Promise<T>,
  options: WaitOptions = {},
): Promise<Exclude<Awaited<T>, Falsy>> {
  const { timeoutMs = 5000, intervalMs = 10 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await predicate();
    if (value) return value as Exclude<Awaited<T>, Falsy>;
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      const what = options.message ?? "condition";
      throw new WaitTimeoutError(`Timed out after ${timeoutMs}ms waiting for ${what}`, timeoutMs);
    }
    await sleep(Math.min(intervalMs, remaining));
  }
}

/** Retries `assertion` until it stops throwing; on timeout rethrows its last error. */
export async function eventually<T>(assertion: () => T | Promise<T>, options: WaitOptions = {}): Promise<T> {
  const { timeoutMs = 5000, intervalMs = 10 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await assertion();
    } catch (error) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw error;
      await sleep(Math.min(intervalMs, remaining));
    }
  }
}
