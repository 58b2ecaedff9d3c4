import {
  abortableDelay,
  acknowledges,
  anySignal,
  RECONNECT_BACKOFF,
  type Receiver,
  Reconnect,
} from "@chorus/channel-kit";
import type { ChannelStatus, Logger } from "@chorus/core";
import { RateLimitedError, toChorusError } from "@chorus/core";
import type { Api } from "grammy";
import { albumKeyOf, updateIdOf } from "./album.js";
import type { TelegramConfig } from "./config.js";
import { ALLOWED_UPDATES } from "./inbound.js";
import { receiveUpdates } from "./receive.js";

/** Polls at most this often for more items of albums still open, before handing over what arrived. */
const MAX_ALBUM_POLLS = 10;

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
 *
 * Albums: Telegram sends one update per item, and a poll may return before the last ones are
 * queued. A batch with album items is held back: after `albumWindowMs` the poller asks again with
 * the same offset (confirming nothing) and takes what is new, until no new item came within the
 * window; then the whole batch goes to the receiver, each album as one message. Its items are
 * confirmed together, once that message is committed; a refused commit leaves them all with
 * Telegram, which hands the whole album out again.
 */
export class Poller {
  #abort: AbortController | undefined;
  #loop: Promise<void> | undefined;
  #offset: number | undefined;
  readonly #reconnect: Reconnect;
  /** Waits before polling again for an update the gateway could not commit (it comes straight back). */
  readonly #uncommitted: Reconnect;
  /** The last poll failed because Telegram refused the bot token (401/403). */
  #refused = false;

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
    const signal = anySignal([this.#abort.signal, this.lifetime]);
    this.#loop = this.#run(signal);
  }

  /** Stops the loop and waits for it to end; the open long poll is aborted. */
  async stop(): Promise<void> {
    this.#abort?.abort();
    await this.#loop;
    this.#loop = undefined;
  }

  /**
   * Degraded while the last poll failed, `failed` when Telegram refused the token (the gateway
   * then stops the account instead of letting it retry); undefined when polling is fine.
   */
  status(): ChannelStatus | undefined {
    const problem = this.#reconnect.problem;
    if (problem === undefined) return undefined;
    return { state: this.#refused ? "failed" : "degraded", detail: problem };
  }

  async #run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        const first = await this.#poll(this.config.pollTimeoutMs / 1000, signal);
        this.#refused = false;
        if (this.#reconnect.succeeded()) this.logger.info({}, "telegram: polling recovered");
        const updates = first.some(isAlbumItem) ? await this.#gatherAlbums(first, signal) : first;
        if (signal.aborted) return;
        const wait = await this.#receiveAll(updates);
        if (wait > 0) await abortableDelay(wait, signal);
      } catch (error) {
        if (signal.aborted) return;
        const reason = toChorusError(error, "getUpdates failed");
        this.#refused = reason.code === "E_AUTH";
        const wait = this.#reconnect.failed(
          `polling failed (${reason.code}): ${reason.message}${this.#refused && reason.hint ? ` ${reason.hint}` : ""}`,
          reason instanceof RateLimitedError ? reason.retryAfterMs : 0,
        );
        this.logger.warn({ err: reason, retryInMs: wait }, "telegram: polling failed, reconnecting");
        await abortableDelay(wait, signal);
      }
    }
  }

  /** One `getUpdates` from the offset (confirming what is below it), waiting up to `timeout` seconds. */
  async #poll(timeout: number, signal: AbortSignal): Promise<unknown[]> {
    const updates = await this.api.getUpdates(
      {
        ...(this.#offset !== undefined ? { offset: this.#offset } : {}),
        timeout,
        allowed_updates: [...ALLOWED_UPDATES],
      },
      // grammY types the signal with its own AbortSignal shim; the platform one is what it uses.
      signal as Parameters<Api["getUpdates"]>[1],
    );
    return updates as unknown[];
  }

  /**
   * Waits for the rest of the albums in `batch`: polls again (same offset, no wait) once the album
   * window passed, adding what is new, until a poll brings no new album item. A poll that fails
   * ends the wait: what arrived goes on, and the next poll brings the rest.
   */
  async #gatherAlbums(batch: unknown[], signal: AbortSignal): Promise<unknown[]> {
    const seen = new Map<number, unknown>();
    const add = (updates: unknown[]) => {
      let newItems = 0;
      for (const update of updates) {
        const id = updateIdOf(update);
        if (id === undefined || seen.has(id)) continue;
        seen.set(id, update);
        if (isAlbumItem(update)) newItems++;
      }
      return newItems;
    };
    const unnumbered = batch.filter((update) => updateIdOf(update) === undefined);
    add(batch);
    for (let round = 0; round < MAX_ALBUM_POLLS && !signal.aborted; round++) {
      await abortableDelay(this.config.albumWindowMs, signal);
      if (signal.aborted) break;
      try {
        if (add(await this.#poll(0, signal)) === 0) break;
      } catch (error) {
        this.logger.debug(
          { err: error },
          "telegram: a poll for the rest of an album failed; going on with what arrived",
        );
        break;
      }
    }
    const numbered = [...seen.entries()].sort(([a], [b]) => a - b).map(([, update]) => update);
    return [...numbered, ...unnumbered];
  }

  /**
   * Hands a batch to the receiver at once (the gateway commits it in one transaction), then moves
   * the offset past every update up to the first one not acknowledged: that one and the rest are
   * delivered again (the ones already committed are recognised by their event id). Returns how
   * long to wait before that next poll (0 when everything was acknowledged).
   */
  async #receiveAll(updates: unknown[]): Promise<number> {
    const receipts = await receiveUpdates(this.receiver, updates);
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

function isAlbumItem(update: unknown): boolean {
  return albumKeyOf(update) !== undefined;
}
