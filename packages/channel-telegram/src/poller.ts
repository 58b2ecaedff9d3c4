import type { ChannelStatus, Logger } from "@chorus/core";
import { RateLimitedError, toChorusError } from "@chorus/core";
import type { Api } from "grammy";
import { delay } from "./api.js";
import type { TelegramConfig } from "./config.js";
import { ALLOWED_UPDATES } from "./inbound.js";
import type { UpdateSink } from "./update-sink.js";

/**
 * Long polling: `getUpdates` with the offset after the last update handled (which confirms it
 * to Telegram), reconnecting with exponential backoff after a failure and honouring 429s.
 */
export class Poller {
  #abort: AbortController | undefined;
  #loop: Promise<void> | undefined;
  #offset: number | undefined;
  #problem: string | undefined;

  constructor(
    private readonly api: Api,
    private readonly config: TelegramConfig,
    private readonly sink: UpdateSink,
    private readonly logger: Logger,
    private readonly lifetime: AbortSignal,
  ) {}

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
    return this.#problem === undefined ? undefined : { state: "degraded", detail: this.#problem };
  }

  async #run(signal: AbortSignal): Promise<void> {
    let failures = 0;
    while (!signal.aborted) {
      try {
        const updates = await this.api.getUpdates(
          {
            ...(this.#offset !== undefined ? { offset: this.#offset } : {}),
            timeout: this.config.pollTimeoutSeconds,
            allowed_updates: [...ALLOWED_UPDATES],
          },
          // grammY types the signal with its own AbortSignal shim; the platform one is what it uses.
          signal as Parameters<Api["getUpdates"]>[1],
        );
        if (this.#problem !== undefined) this.logger.info({}, "telegram: polling recovered");
        failures = 0;
        this.#problem = undefined;
        for (const update of updates) {
          this.#offset = update.update_id + 1;
          try {
            await this.sink.accept(update);
          } catch (error) {
            this.logger.error({ err: error, updateId: update.update_id }, "telegram: an update could not be handled");
          }
        }
      } catch (error) {
        if (signal.aborted) return;
        const reason = toChorusError(error, "getUpdates failed");
        failures += 1;
        this.#problem = `polling failed (${reason.code}): ${reason.message}`;
        const wait =
          reason instanceof RateLimitedError
            ? reason.retryAfterMs
            : Math.min(this.config.reconnectMaxMs, this.config.reconnectMinMs * 2 ** (failures - 1));
        this.logger.warn({ err: reason, retryInMs: wait }, "telegram: polling failed, reconnecting");
        await delay(wait, signal);
      }
    }
  }
}
