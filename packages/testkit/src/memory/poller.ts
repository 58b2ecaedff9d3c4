import { join } from "node:path";
import { abortableDelay, type HttpClient, Reconnect } from "@chorus/channel-kit";
import { importLegacyFile } from "@chorus/channel-kit/state";
import { type ChannelContext, type ChannelStatus, type RefScope, toChorusError } from "@chorus/core";
import type { MemoryConfig } from "./config.js";
import { toInboundEvent } from "./inbound.js";
import type { WireEvent } from "./wire.js";

/** The store key of the last event sequence this account processed. */
const CURSOR_KEY = "cursor";

/** Long-polls the platform's event stream and emits normalised events, reconnecting with backoff. */
export class EventPoller {
  #stop = new AbortController();
  #loop: Promise<void> | undefined;
  readonly #reconnect = new Reconnect({ initialMs: 100, maxMs: 5_000, jitter: 0.5 });

  constructor(
    private readonly client: HttpClient,
    private readonly ctx: ChannelContext<MemoryConfig>,
    private readonly inbound: () => RefScope,
  ) {}

  async start(): Promise<void> {
    // Versions before the store kept the cursor in `<stateDir>/cursor.json`.
    await importLegacyFile(this.ctx.store, this.ctx.logger, {
      file: join(this.ctx.stateDir, "cursor.json"),
      entries: (content) => {
        const seq = (content as { seq?: unknown }).seq;
        if (typeof seq !== "number") throw new Error("seq is not a number");
        return [[CURSOR_KEY, seq]];
      },
    });
    const stored = await this.ctx.store.get(CURSOR_KEY);
    const seq = typeof stored === "number" && Number.isInteger(stored) && stored >= 0 ? stored : 0;
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
    const problem = this.#reconnect.problem;
    return problem === undefined ? undefined : { state: "degraded", detail: problem };
  }

  async #run(startSeq: number, signal: AbortSignal): Promise<void> {
    let seq = startSeq;
    while (!signal.aborted) {
      try {
        const { events } = await this.client.request<{ events: WireEvent[] }>({
          method: "GET",
          path: "/v1/events",
          query: { after: seq, waitMs: this.ctx.config.pollWaitMs },
          operation: "poll for events",
          timeoutMs: this.ctx.config.pollWaitMs + this.ctx.config.timeoutMs,
          signal,
        });
        if (this.#reconnect.succeeded()) this.ctx.logger.info({}, "memory channel: event poll recovered");
        for (const event of events) {
          const normalized = toInboundEvent(event, this.inbound(), this.ctx.logger);
          if (normalized) this.ctx.emit(normalized);
          seq = Math.max(seq, event.seq);
        }
        if (events.length > 0) await this.ctx.store.set(CURSOR_KEY, seq);
      } catch (error) {
        if (signal.aborted) return;
        const reason = toChorusError(error, "event poll failed");
        const wait = this.#reconnect.failed(`event poll failed: ${reason.message}`);
        this.ctx.logger.warn(
          { err: reason.message, failures: this.#reconnect.failures, retryInMs: wait },
          "memory channel: event poll failed, retrying",
        );
        await abortableDelay(wait, signal);
      }
    }
  }
}
