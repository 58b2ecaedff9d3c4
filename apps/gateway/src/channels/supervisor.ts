import { abortableDelay, type BackoffPolicy, backoffDelay, Redactor, withTimeout } from "@chorus/channel-kit";
import {
  type ChannelContext,
  type ChannelInstance,
  type ChannelPlugin,
  type ChannelStatus,
  isChorusError,
  type Logger,
} from "@chorus/core";
import { DEFAULT_RESTART_BACKOFF } from "./backoff.js";
import { type ContainedChannel, runAsChannel } from "./containment.js";

export interface SupervisorOptions {
  plugin: ChannelPlugin<unknown>;
  accountId: string;
  /** Builds the context of a new instance; `signal` aborts when that instance is being replaced. */
  context(signal: AbortSignal): ChannelContext<unknown>;
  logger: Logger;
  backoff?: BackoffPolicy;
  /** How long `stop()` waits for the instance (or a start in flight) to stop. */
  stopTimeoutMs?: number;
  /** Removes the account's secrets from what the channel reports (status, errors); none by default. */
  redactor?: Redactor;
}

export interface SupervisedStatus extends ChannelStatus {
  /** Restart attempts since the gateway started. */
  restarts: number;
  /** The message of the last failure; kept after the channel recovers, so one can see why it restarted. */
  lastError?: string;
}

/** A start attempt's outcome: the error it failed with, or none. */
type StartOutcome = { ok: true } | { ok: false; error: unknown };

/** The methods of a `ChannelInstance` the gateway calls (all but the optional ones are always there). */
const INSTANCE_METHODS = [
  "start",
  "stop",
  "send",
  "react",
  "listReactions",
  "setTyping",
  "resolveMessageRef",
  "status",
  "identity",
] as const satisfies readonly (keyof ChannelInstance)[];

/**
 * Runs one channel account: starts it, and when it fails to start or crashes, marks it degraded
 * and restarts it with exponential backoff and jitter. Everything the channel's code does runs as
 * that channel (`runAsChannel`), so an error that escapes it later restarts the channel instead
 * of ending the gateway. It never throws at its caller.
 */
export class ChannelSupervisor implements ContainedChannel {
  #instance: ChannelInstance | undefined;
  #scoped: ChannelInstance | undefined;
  #instanceAbort: AbortController | undefined;
  #state: SupervisedStatus = { state: "stopped", restarts: 0 };
  readonly #stopping = new AbortController();
  readonly #redactor: Redactor;
  /** The first start attempt while it runs. */
  #starting: Promise<void> | undefined;
  /** The restart loop while it runs (backoff and attempts until one succeeds or `stop()`). */
  #restarting: Promise<void> | undefined;
  #attempt = 0;

  constructor(private readonly options: SupervisorOptions) {
    this.#redactor = options.redactor ?? new Redactor();
  }

  get id(): string {
    return `${this.options.plugin.id}:${this.options.accountId}`;
  }

  /** The running instance, or undefined while it is (re)starting or stopped; its calls run as the channel. */
  get instance(): ChannelInstance | undefined {
    return this.#state.state === "running" ? this.#scoped : undefined;
  }

  /** The supervisor's view (state, restarts, last error) merged with what a running instance reports; no secrets. */
  status(): SupervisedStatus {
    if (this.#state.state !== "running" || !this.#instance) return { ...this.#state };
    let reported: ChannelStatus;
    try {
      reported = this.#redactor.status(runAsChannel(this, () => (this.#instance as ChannelInstance).status()));
    } catch (error) {
      reported = { state: "degraded", detail: `status() failed: ${this.#message(error)}` };
    }
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

  /** An error escaped the channel's code (a stray rejection, a throw from a timer): restart it. */
  contain(error: unknown, how: string): void {
    this.options.logger.error(
      { instance: this.id, err: this.#message(error), how },
      "channel code failed outside any call; restarting the channel",
    );
    if (this.#stopping.signal.aborted) return;
    this.#crashed(error);
  }

  /** Stops the channel for good: ends a pending backoff at once and stops the instance. */
  async stop(): Promise<void> {
    this.#stopping.abort();
    this.#instanceAbort?.abort();
    const pending = Promise.all([this.#starting, this.#restarting]);
    const timeout = this.#stopTimeout();
    try {
      await withTimeout(pending, timeout, () => new Error(`a start in flight did not end within ${timeout} ms`));
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
      const instance = await runAsChannel(this, () => this.options.plugin.create(this.options.context(abort.signal)));
      this.#instance = instance;
      this.#scoped = this.#scope(instance);
      await runAsChannel(this, () => instance.start());
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

  /** The instance with every method run as this channel. */
  #scope(instance: ChannelInstance): ChannelInstance {
    const scoped: Record<string, unknown> = {};
    for (const name of INSTANCE_METHODS) {
      const method = instance[name] as ((...args: unknown[]) => unknown) | undefined;
      if (typeof method === "function") {
        scoped[name] = (...args: unknown[]) => runAsChannel(this, () => method.apply(instance, args));
      }
    }
    return scoped as unknown as ChannelInstance;
  }

  #crashed(error: unknown): void {
    this.#markDegraded(error);
    if (this.#restarting || this.#stopping.signal.aborted) return;
    this.#restarting = this.#restartLoop().finally(() => {
      this.#restarting = undefined;
    });
  }

  #markDegraded(error: unknown): void {
    const message = this.#message(error);
    this.#state = { state: "degraded", detail: message, restarts: this.#state.restarts, lastError: message };
  }

  /** What a failure says, without the account's secrets. */
  #message(error: unknown): string {
    return this.#redactor.text(error instanceof Error ? error.message : String(error));
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
      await abortableDelay(delay, this.#stopping.signal);
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
    this.#scoped = undefined;
    this.#instanceAbort?.abort();
    if (!instance) return;
    const timeout = this.#stopTimeout();
    try {
      await withTimeout(
        runAsChannel(this, () => instance.stop()),
        timeout,
        () => new Error(`stop took over ${timeout} ms`),
      );
    } catch (error) {
      this.options.logger.warn({ instance: this.id, err: this.#message(error) }, "channel did not stop cleanly");
    }
  }

  #stopTimeout(): number {
    return this.options.stopTimeoutMs ?? 5_000;
  }
}
