import { abortableDelay, type BackoffPolicy, backoffDelay, Redactor, withTimeout } from "@chorus/channel-kit";
import {
  type ChannelContext,
  type ChannelInstance,
  type ChannelPlugin,
  type ChannelStatus,
  isChorusError,
  type Logger,
} from "@chorus/core";
import { authRetryFromEnv, DEFAULT_RESTART_BACKOFF } from "./backoff.js";
import { type ContainedChannel, runAsChannel } from "./containment.js";
import { credentialFix, isCredentialRefusal } from "./credentials.js";

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
  /** How long a `failed` account (credentials refused) waits before trying again; default 10 min (`CHORUS_AUTH_RETRY_MS`). */
  authRetryMs?: number;
}

export interface SupervisedStatus extends ChannelStatus {
  /** Restart attempts since the gateway started. */
  restarts: number;
  /** The message of the last failure; kept after the channel recovers, so one can see why it restarted. */
  lastError?: string;
  /** In state `failed`: what to fix (the config key, or the login to redo). */
  fix?: string;
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
  "download",
  "status",
  "identity",
] as const satisfies readonly (keyof ChannelInstance)[];

/**
 * Runs one channel account: starts it, and when it fails to start or crashes, marks it degraded
 * and restarts it with exponential backoff and jitter. When the platform refuses the credentials
 * (`E_AUTH` from `start()`, or the instance reporting `failed`), the account is `failed` with the
 * reason and the fix instead, and only tried again quietly, every `authRetryMs` (DESIGN §3). Everything the channel's code does runs as
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
  /** The quiet retry of a `failed` account while it runs. */
  #retrying: Promise<void> | undefined;
  #attempt = 0;
  readonly #authRetryMs: number;

  constructor(private readonly options: SupervisorOptions) {
    this.#redactor = options.redactor ?? new Redactor();
    this.#authRetryMs = options.authRetryMs ?? authRetryFromEnv();
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
    if (reported.state === "failed") {
      // The platform refused the credentials while the instance ran: it is stopped, not kept retrying.
      this.#fail(new Error(reported.detail ?? "the platform refused the credentials"));
      return { ...this.#state };
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
    const pending = Promise.all([this.#starting, this.#restarting, this.#retrying]);
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
    const { detail: _detail, fix: _fix, ...kept } = this.#state;
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
    // A failed account waits for its quiet retry: a stray error of the instance it stopped changes nothing.
    if (this.#retrying) return;
    if (isCredentialRefusal(error)) {
      this.#fail(error);
      return;
    }
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
      if (isCredentialRefusal(outcome.error)) {
        this.#fail(outcome.error);
        return;
      }
      this.#markDegraded(outcome.error);
    }
  }

  /** The credentials were refused: `failed` with the reason and the fix, said once; then the quiet retry. */
  #fail(error: unknown): void {
    if (this.#stopping.signal.aborted) return;
    this.#markFailed(error);
    this.options.logger.error(
      { instance: this.id, err: this.#state.detail, fix: this.#state.fix, retryInMs: this.#authRetryMs },
      "channel credentials refused; not restarting it (fix the config)",
    );
    this.#retrying ??= this.#quietRetry().then((other) => {
      this.#retrying = undefined;
      // Something else than the credentials now (the platform is down): the ordinary restarts take over.
      if (other) this.#crashed(other.error);
    });
  }

  #markFailed(error: unknown): void {
    const message = this.#message(error);
    const fix = credentialFix(this.options.plugin, this.options.accountId, error, this.#authRetryMs);
    this.#state = { state: "failed", detail: message, fix, restarts: this.#state.restarts, lastError: message };
  }

  /** Stops the refused instance, tries again every `authRetryMs` (one log line each) until it starts; else the other failure. */
  async #quietRetry(): Promise<{ error: unknown } | undefined> {
    await this.#stopInstance();
    while (!this.#stopping.signal.aborted) {
      await abortableDelay(this.#authRetryMs, this.#stopping.signal);
      if (this.#stopping.signal.aborted) return undefined;
      this.#state = { ...this.#state, restarts: this.#state.restarts + 1 };
      const outcome = await this.#tryStart();
      if (outcome.ok) return undefined;
      if (!isCredentialRefusal(outcome.error)) return { error: outcome.error };
      this.#markFailed(outcome.error);
      this.options.logger.warn(
        { instance: this.id, err: this.#state.detail, retryInMs: this.#authRetryMs },
        "channel credentials still refused",
      );
    }
    return undefined;
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
