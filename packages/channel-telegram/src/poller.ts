import { abortableDelay, RECONNECT_BACKOFF, Reconnect } from "@chorus/channel-kit";
import type { ChannelStatus, Logger } from "@chorus/core";
import { RateLimitedError, toChorusError } from "@chorus/core";
import type { Api } from "grammy";
import type { TelegramConfig } from "./config.js";
import { ALLOWED_UPDATES } from "./inbound.js";
import type { UpdateSink } from "./update-sink.js";

/**
 * Long polling: `getUpdates` with the offset after the last update handled (which confirms it
 * to Telegram), reconnecting with the kit's backoff after a failure and honouring 429s. An
 * update is confirmed only once the gateway committed its events (`ctx.emit` resolved): a crash
 * before that leaves it with Telegram, which delivers it again.
 *
 * The offset is Telegram's cursor and stays in memory on purpose: Telegram keeps every
 * unconfirmed update itself, so a restart without it loses nothing (a redelivered update has
 * the same eventId, which the gateway drops), while a stored offset could skip updates once
 * Telegram restarts its ids ("after a week without updates the next id is chosen randomly").
 */
export class Poller {
  #abort: AbortController | undefined;
  #loop: Promise<void> | undefined;
  #offset: number | undefined;
  readonly #reconnect: Reconnect;

  constructor(
    private readonly api: Api,
    private readonly config: TelegramConfig,
    private readonly sink: UpdateSink,
    private readonly logger: Logger,
    private readonly lifetime: AbortSignal,
  ) {
    this.#reconnect = new Reconnect({
      initialMs: config.reconnectMinMs,
      maxMs: config.reconnectMaxMs,
      jitter: RECONNECT_BACKOFF.jitter,
    });
  }

  /** Starts the loop (returns at once). */
  start(): void {
    this.#abort = new AbortController();
    const signal = AbortSignal.any([this.#abort.signal, this.lifetime]);
    this.#loop = this.#run(signal);
  }

  /** Stops the loop and waits for it to end; the open long poll is aborted. */
  async stop(): Promise<void> {
    this.#abort?.abort();
    await this.#loop;
    this.#loop = undefined;
  }

  /** Degraded while the last poll failed; undefined when polling is fine. */
  status(): ChannelStatus | undefined {
    const problem = this.#reconnect.problem;
    return problem === undefined ? undefined : { state: "degraded", detail: problem };
  }

  async #run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        const updates = await this.api.getUpdates(
          {
            ...(this.#offset !== undefined ? { offset: this.#offset } : {}),
            timeout: this.config.pollTimeoutMs / 1000,
            allowed_updates: [...ALLOWED_UPDATES],
          },
          // grammY types the signal with its own AbortSignal shim; the platform one is what it uses.
          signal as Parameters<Api["getUpdates"]>[1],
        );
        if (this.#reconnect.succeeded()) this.logger.info({}, "telegram: polling recovered");
        await this.#handleAll(updates as unknown[]);
      } catch (error) {
        if (signal.aborted) return;
        const reason = toChorusError(error, "getUpdates failed");
        const wait = this.#reconnect.failed(
          `polling failed (${reason.code}): ${reason.message}`,
          reason instanceof RateLimitedError ? reason.retryAfterMs : 0,
        );
        this.logger.warn({ err: reason, retryInMs: wait }, "telegram: polling failed, reconnecting");
        await abortableDelay(wait, signal);
      }
    }
  }

  /**
   * Hands a batch to the sink at once (the gateway commits it in one transaction), then moves the
   * offset past every update up to the first one whose commit failed: that one and the rest are
   * delivered again (the ones already committed are recognised by their event id).
   */
  async #handleAll(updates: unknown[]): Promise<void> {
    const outcomes = await Promise.allSettled(updates.map((update) => this.sink.accept(update)));
    for (const [index, update] of updates.entries()) {
      const id = (update as { update_id?: unknown } | null)?.update_id;
      const outcome = outcomes[index] as PromiseSettledResult<boolean>;
      if (outcome.status === "rejected") {
        this.logger.error(
          { err: outcome.reason, updateId: id },
          "telegram: an update could not be committed; it comes again",
        );
        // Back off like any failed poll: the next one asks for it again.
        throw outcome.reason;
      }
      if (typeof id === "number" && Number.isSafeInteger(id)) this.#offset = Math.max(this.#offset ?? 0, id + 1);
    }
  }
}
