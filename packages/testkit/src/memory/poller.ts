import { type ChannelContext, type ChannelStatus, toChorusError } from "@chorus/core";
import type { MemoryClient } from "./client.js";
import type { MemoryConfig } from "./config.js";
import { CursorStore } from "./cursor-store.js";
import { type InboundContext, toInboundEvent } from "./inbound.js";
import type { WireEvent } from "./wire.js";

const MAX_BACKOFF_MS = 5_000;

/** Long-polls the platform's event stream and emits normalised events, reconnecting with backoff. */
export class EventPoller {
  readonly #cursor: CursorStore;
  #stop = new AbortController();
  #loop: Promise<void> | undefined;
  #failure: ChannelStatus | undefined;

  constructor(
    private readonly client: MemoryClient,
    private readonly ctx: ChannelContext<MemoryConfig>,
    private readonly inbound: () => InboundContext,
  ) {
    this.#cursor = new CursorStore(ctx.stateDir);
  }

  async start(): Promise<void> {
    const seq = await this.#cursor.load();
    this.#stop = new AbortController();
    this.#loop = this.#run(seq, AbortSignal.any([this.#stop.signal, this.ctx.signal]));
  }

  async stop(): Promise<void> {
    this.#stop.abort();
    await this.#loop;
    this.#loop = undefined;
  }

  /** A degraded status while the platform cannot be reached, else undefined. */
  status(): ChannelStatus | undefined {
    return this.#failure;
  }

  async #run(startSeq: number, signal: AbortSignal): Promise<void> {
    let seq = startSeq;
    let failures = 0;
    while (!signal.aborted) {
      try {
        const { events } = await this.client.request<{ events: WireEvent[] }>(
          "GET",
          `/v1/events?after=${seq}&waitMs=${this.ctx.config.pollWaitMs}`,
          { signal },
        );
        failures = 0;
        this.#failure = undefined;
        for (const event of events) {
          const normalised = toInboundEvent(event, this.inbound());
          if (normalised) this.ctx.emit(normalised);
          seq = Math.max(seq, event.seq);
        }
        if (events.length > 0) await this.#cursor.save(seq);
      } catch (error) {
        if (signal.aborted) return;
        failures++;
        const reason = toChorusError(error, "event poll failed");
        this.#failure = { state: "degraded", detail: reason.message };
        this.ctx.logger.warn({ err: reason.message, failures }, "memory channel: event poll failed, retrying");
        await backoff(failures, signal);
      }
    }
  }
}

/** Waits an exponentially growing, jittered delay (capped), or until aborted. */
function backoff(failures: number, signal: AbortSignal): Promise<void> {
  const base = Math.min(MAX_BACKOFF_MS, 100 * 2 ** Math.min(failures, 10));
  const ms = base / 2 + Math.random() * (base / 2);
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
