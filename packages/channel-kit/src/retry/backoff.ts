import { ChorusError } from "@chorus/core";

/** How waits between attempts grow: the first delay, the cap, and how much of each delay is random. */
export interface BackoffPolicy {
  initialMs: number;
  maxMs: number;
  /** 0..1: how much of each delay is random (full jitter at 1). */
  jitter: number;
}

/** Reconnecting a long-lived connection (a poll, a socket, an event stream): 0.5 s doubling to 30 s. */
export const RECONNECT_BACKOFF: BackoffPolicy = { initialMs: 500, maxMs: 30_000, jitter: 0.5 };

/** Delay before attempt number `attempt` (1-based): exponential, capped, with jitter. */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const exponential = Math.min(policy.maxMs, policy.initialMs * 2 ** Math.max(0, attempt - 1));
  const spread = exponential * policy.jitter;
  return Math.round(exponential - spread + random() * spread);
}

/** Checks a policy from config or the environment, naming what is wrong. */
export function checkBackoffPolicy(policy: BackoffPolicy, what: string): BackoffPolicy {
  const { initialMs, maxMs, jitter } = policy;
  if (!Number.isFinite(initialMs) || initialMs < 1 || !Number.isFinite(maxMs) || maxMs < initialMs) {
    throw new ChorusError("E_INVALID_INPUT", `${what}: initialMs must be ≥ 1 and maxMs ≥ initialMs`);
  }
  if (!(jitter >= 0 && jitter <= 1)) throw new ChorusError("E_INVALID_INPUT", `${what}: jitter must be from 0 to 1`);
  return policy;
}

/**
 * The attempt counter of one reconnecting connection: `failed()` gives the next wait,
 * `succeeded()` starts over, and `problem` says why it is down (for a degraded status).
 */
export class Reconnect {
  #failures = 0;
  #problem: string | undefined;

  constructor(private readonly policy: BackoffPolicy = RECONNECT_BACKOFF) {}

  /** Failures since the last success. */
  get failures(): number {
    return this.#failures;
  }

  /** Why the connection is down, or undefined while it is up. */
  get problem(): string | undefined {
    return this.#problem;
  }

  /** Records a failure; returns how long to wait before the next attempt (`atLeastMs`: a server's Retry-After). */
  failed(problem: string, atLeastMs = 0): number {
    this.#failures += 1;
    this.#problem = problem;
    return Math.max(atLeastMs, backoffDelay(this.#failures, this.policy));
  }

  /** Records a success: the next failure waits the shortest delay again. True when it was down. */
  succeeded(): boolean {
    const wasDown = this.#problem !== undefined;
    this.#failures = 0;
    this.#problem = undefined;
    return wasDown;
  }
}
