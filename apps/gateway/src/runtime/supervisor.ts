import {
  type ChannelContext,
  type ChannelInstance,
  type ChannelPlugin,
  type ChannelStatus,
  isChorusError,
  type Logger,
} from "@chorus/core";
import { type BackoffPolicy, backoffDelay, DEFAULT_RESTART_BACKOFF, sleep, withTimeout } from "./backoff.js";

export interface SupervisorOptions {
  plugin: ChannelPlugin<unknown>;
  accountId: string;
  /** Builds the context of a new instance; `signal` aborts when that instance is being replaced. */
  context(signal: AbortSignal): ChannelContext<unknown>;
  logger: Logger;
  backoff?: BackoffPolicy;
  /** How long `stop()` waits for the instance (or a start in flight) to stop. */
  stopTimeoutMs?: number;
}

export interface SupervisedStatus extends ChannelStatus {
  /** Restart attempts since the gateway started. */
  restarts: number;
  /** The message of the last failure; kept after the channel recovers, so one can see why it restarted. */
  lastError?: string;
}

/** A start attempt's outcome: the error it failed with, or none. */
type StartOutcome = { ok: true } | { ok: false; error: unknown };

/**
 * Runs one channel account: starts it, and when it fails to start or crashes, marks it degraded
 * and restarts it with exponential backoff and jitter. It never throws at its caller.
 */
export class ChannelSupervisor {
  #instance: ChannelInstance | undefined;
  #instanceAbort: AbortController | undefined;
  #state: SupervisedStatus = { state: "stopped", restarts: 0 };
  readonly #stopping = new AbortController();
  /** The first start attempt while it runs. */
  #starting: Promise<void> | undefined;
  /** The restart loop while it runs (backoff and attempts until one succeeds or `stop()`). */
  #restarting: Promise<void> | undefined;
  #attempt = 0;

  constructor(private readonly options: SupervisorOptions) {}

  get id(): string {
    return `${this.options.plugin.id}:${this.options.accountId}`;
  }

  /** The running instance, or undefined while it is (re)starting or stopped. */
  get instance(): ChannelInstance | undefined {
    return this.#state.state === "running" ? this.#instance : undefined;
  }

  /** The supervisor's view (state, restarts, last error) merged with what a running instance reports. */
  status(): SupervisedStatus {
    if (this.#state.state !== "running" || !this.#instance) return { ...this.#state };
    const reported = this.#instance.status();
    return { ...this.#state, ...reported, restarts: this.#state.restarts };
  }

  /** Starts the channel; on failure it keeps retrying in the background. Resolves after the first attempt. */
  async start(): Promise<void> {
    this.#starting ??= (async () => {
      const outcome = await this.#tryStart();
      if (!outcome.ok) this.#crashed(outcome.error);
    })();
    await this.#starting;
  }

  /**
   * Tells the supervisor an operation on the running instance failed. Errors that are not
   * `ChorusError`s (a bug, a crashed client) restart the instance; typed platform errors do not,
   * nor do failures reported while the channel is not running (a restart is already under way).
   */
  reportFailure(error: unknown): void {
    if (isChorusError(error) || this.#state.state !== "running") return;
    this.#crashed(error);
  }

  /** Stops the channel for good: ends a pending backoff at once and stops the instance. */
  async stop(): Promise<void> {
    this.#stopping.abort();
    this.#instanceAbort?.abort();
    const pending = Promise.all([this.#starting, this.#restarting]);
    const timeout = this.#stopTimeout();
    try {
      await withTimeout(pending, timeout, `a start in flight did not end within ${timeout} ms`);
    } catch (error) {
      this.options.logger.warn({ instance: this.id, err: (error as Error).message }, "channel did not stop cleanly");
    }
    await this.#stopInstance();
    this.#state = { ...this.#state, state: "stopped" };
  }

  /** Creates and starts one instance. An instance that starts after `stop()` is stopped again. */
  async #tryStart(): Promise<StartOutcome> {
    if (this.#stopping.signal.aborted) return { ok: true };
    this.#state = { ...this.#state, state: "starting" };
    const abort = new AbortController();
    this.#instanceAbort = abort;
    try {
      const instance = await this.options.plugin.create(this.options.context(abort.signal));
      this.#instance = instance;
      await instance.start();
    } catch (error) {
      await this.#stopInstance();
      return { ok: false, error };
    }
    if (this.#stopping.signal.aborted) {
      await this.#stopInstance();
      return { ok: true };
    }
    this.#attempt = 0;
    const { detail: _detail, ...kept } = this.#state;
    this.#state = { ...kept, state: "running" };
    this.options.logger.info({ instance: this.id, restarts: this.#state.restarts }, "channel started");
    return { ok: true };
  }

  #crashed(error: unknown): void {
    this.#markDegraded(error);
    if (this.#restarting || this.#stopping.signal.aborted) return;
    this.#restarting = this.#restartLoop().finally(() => {
      this.#restarting = undefined;
    });
  }

  #markDegraded(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.#state = { state: "degraded", detail: message, restarts: this.#state.restarts, lastError: message };
  }

  /** Stops the failed instance, then waits out the backoff and retries until a start succeeds or `stop()`. */
  async #restartLoop(): Promise<void> {
    await this.#stopInstance();
    while (!this.#stopping.signal.aborted) {
      this.#attempt++;
      const delay = backoffDelay(this.#attempt, this.options.backoff ?? DEFAULT_RESTART_BACKOFF);
      this.options.logger.warn(
        { instance: this.id, err: this.#state.lastError, attempt: this.#attempt, retryInMs: delay },
        "channel failed; restarting",
      );
      await sleep(delay, this.#stopping.signal);
      if (this.#stopping.signal.aborted) return;
      this.#state = { ...this.#state, restarts: this.#state.restarts + 1 };
      const outcome = await this.#tryStart();
      if (outcome.ok) return;
      this.#markDegraded(outcome.error);
    }
  }

  async #stopInstance(): Promise<void> {
    const instance = this.#instance;
    this.#instance = undefined;
    this.#instanceAbort?.abort();
    if (!instance) return;
    const timeout = this.#stopTimeout();
    try {
      await withTimeout(instance.stop(), timeout, `stop took over ${timeout} ms`);
    } catch (error) {
      this.options.logger.warn({ instance: this.id, err: (error as Error).message }, "channel did not stop cleanly");
    }
  }

  #stopTimeout(): number {
    return this.options.stopTimeoutMs ?? 5_000;
  }
}
