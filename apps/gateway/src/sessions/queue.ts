import { ChorusError } from "@chorus/core";
import { SETTLED } from "../support/index.js";

export interface TurnQueueOptions {
  /** Tasks running at once over all keys. */
  maxConcurrent: number;
}

/** The outcome of `drain`. */
export interface DrainResult {
  /** True when every task finished before the deadline. */
  drained: boolean;
  /** Tasks aborted (running) or dropped (never started) at the deadline. */
  abandoned: number;
}

interface Job {
  readonly key: string;
  readonly task: (signal: AbortSignal) => Promise<unknown>;
  readonly controller: AbortController;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Runs turns: one at a time per session key, in arrival order, and at most `maxConcurrent` at
 * once overall. Keys take turns, so one busy session cannot starve the others.
 */
export class TurnQueue {
  private readonly maxConcurrent: number;
  private readonly pending = new Map<string, Job[]>();
  /** Keys with pending jobs and none running, in the order they became ready. */
  private readonly ready: string[] = [];
  private readonly running = new Map<string, Job>();
  private waiting = 0;
  private draining: Promise<DrainResult> | undefined;
  private stopped = false;
  private idleWaiters: (() => void)[] = [];

  constructor(options: TurnQueueOptions) {
    if (!Number.isInteger(options.maxConcurrent) || options.maxConcurrent < 1) {
      throw new ChorusError(
        "E_INVALID_INPUT",
        `maxConcurrent must be a positive integer, got ${options.maxConcurrent}`,
      );
    }
    this.maxConcurrent = options.maxConcurrent;
  }

  /** Tasks waiting to start. */
  get size(): number {
    return this.waiting;
  }

  /** Tasks running now. */
  get active(): number {
    return this.running.size;
  }

  /**
   * Runs `task` after the earlier tasks of `key`; its signal aborts when shutdown gives up waiting.
   * A task must not await another task of its own key: that one waits for it to finish.
   */
  run<T>(key: string, task: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.draining) return Promise.reject(shuttingDown());
    return new Promise<T>((resolve, reject) => {
      const job: Job = {
        key,
        task,
        controller: new AbortController(),
        resolve: resolve as (value: unknown) => void,
        reject,
      };
      const queue = this.pending.get(key);
      if (queue) queue.push(job);
      else {
        this.pending.set(key, [job]);
        if (!this.running.has(key)) this.ready.push(key);
      }
      this.waiting++;
      this.pump();
    });
  }

  /**
   * Stops accepting tasks, waits up to `timeoutMs` for running and queued ones, then aborts the
   * running ones through their signal and drops the queued ones.
   */
  drain(timeoutMs: number): Promise<DrainResult> {
    this.draining ??= this.waitThenAbort(timeoutMs);
    return this.draining;
  }

  private async waitThenAbort(timeoutMs: number): Promise<DrainResult> {
    if (this.idle()) return { drained: true, abandoned: 0 };
    let timer: NodeJS.Timeout | undefined;
    const finished = await new Promise<boolean>((resolve) => {
      this.idleWaiters.push(() => resolve(true));
      timer = setTimeout(() => resolve(false), Math.max(0, timeoutMs));
    });
    clearTimeout(timer);
    if (finished) return { drained: true, abandoned: 0 };
    this.stopped = true;
    let abandoned = 0;
    for (const queue of this.pending.values()) {
      for (const job of queue) {
        job.reject(new ChorusError("E_DISABLED", "gateway is shutting down: the turn was dropped before it started"));
        abandoned++;
      }
    }
    this.pending.clear();
    this.ready.length = 0;
    this.waiting = 0;
    for (const job of this.running.values()) {
      job.controller.abort(shuttingDown());
      abandoned++;
    }
    return { drained: false, abandoned };
  }

  private pump(): void {
    while (!this.stopped && this.running.size < this.maxConcurrent && this.ready.length > 0) {
      const key = this.ready.shift() as string;
      const queue = this.pending.get(key);
      const job = queue?.shift();
      if (!queue || !job) continue;
      if (queue.length === 0) this.pending.delete(key);
      this.waiting--;
      this.start(job);
    }
  }

  private start(job: Job): void {
    this.running.set(job.key, job);
    void this.runJob(job);
  }

  /** Runs a job in a later microtask (never inside the call that queued it); one async function, not a chain of promises. */
  private async runJob(job: Job): Promise<void> {
    await SETTLED;
    try {
      job.resolve(await job.task(job.controller.signal));
    } catch (error) {
      job.reject(error);
    } finally {
      this.running.delete(job.key);
      if (this.pending.has(job.key)) this.ready.push(job.key);
      this.pump();
      if (this.idle()) this.notifyIdle();
    }
  }

  private idle(): boolean {
    return this.running.size === 0 && this.waiting === 0;
  }

  private notifyIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }
}

function shuttingDown(): ChorusError {
  return new ChorusError("E_DISABLED", "gateway is shutting down", {
    hint: "the gateway stops taking new turns while it shuts down; try again after it restarts",
  });
}
