import { abortableDelay, acknowledges, RECONNECT_BACKOFF, type Receiver, Reconnect } from "@chorus/channel-kit";
import type { ChannelStatus, Logger } from "@chorus/core";
import { RateLimitedError, toChorusError } from "@chorus/core";
import type { Api } from "grammy";
import type { TelegramConfig } from "./config.js";
import { ALLOWED_UPDATES } from "./inbound.js";

/**
 * Long polling: `getUpdates` with the offset after the last update acknowledged (which confirms
 * it to Telegram: "An update is considered confirmed as soon as getUpdates is called with an
 * offset higher than its update_id"), reconnecting with the kit's backoff after a failure and
 * honouring 429s. An update is acknowledged only once the receiver says so (its events committed,
 * or nothing to commit): a crash before that leaves it with Telegram, which delivers it again.
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
  /** Waits before polling again for an update the gateway could not commit (it comes straight back). */
  readonly #uncommitted: Reconnect;

  constructor(
    private readonly api: Api,
    private readonly config: TelegramConfig,
    private readonly receiver: Receiver<unknown>,
    private readonly logger: Logger,
    private readonly lifetime: AbortSignal,
  ) {
    const backoff = {
      initialMs: config.reconnectMinMs,
      maxMs: config.reconnectMaxMs,
      jitter: RECONNECT_BACKOFF.jitter,
    };
    this.#reconnect = new Reconnect(backoff);
    this.#uncommitted = new Reconnect(backoff);
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
        const wait = await this.#receiveAll(updates as unknown[]);
        if (wait > 0) await abortableDelay(wait, signal);
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
   * Hands a batch to the receiver at once (the gateway commits it in one transaction), then moves
   * the offset past every update up to the first one not acknowledged: that one and the rest are
   * delivered again (the ones already committed are recognised by their event id). Returns how
   * long to wait before that next poll (0 when everything was acknowledged).
   */
  async #receiveAll(updates: unknown[]): Promise<number> {
    const receipts = await Promise.all(updates.map((update) => this.receiver.receive(update)));
    const refused = receipts.findIndex((receipt) => !acknowledges(receipt));
    for (const update of refused < 0 ? updates : updates.slice(0, refused)) {
      const id = (update as { update_id?: unknown } | null)?.update_id;
      if (typeof id === "number" && Number.isSafeInteger(id)) this.#offset = Math.max(this.#offset ?? 0, id + 1);
    }
    if (refused < 0) {
      this.#uncommitted.succeeded();
      return 0;
    }
    const id = (updates[refused] as { update_id?: unknown } | null)?.update_id;
    const wait = this.#uncommitted.failed(`update ${String(id)} not committed`);
    this.logger.debug({ updateId: id, retryInMs: wait }, "telegram: an update was not committed; Telegram keeps it");
    return wait;
  }
}
