import { join } from "node:path";
import {
  abortableDelay,
  acknowledges,
  anySignal,
  createReceiver,
  type HttpClient,
  type Receiver,
  Reconnect,
} from "@chorus/channel-kit";
import { importLegacyFile } from "@chorus/channel-kit/state";
import { type ChannelContext, type ChannelStatus, type RefScope, toChorusError } from "@chorus/core";
import type { MemoryConfig } from "./config.js";
import { toInboundEvent } from "./inbound.js";
import type { WireEvent } from "./wire.js";

/** The store key of the last event sequence this account processed. */
const CURSOR_KEY = "cursor";

/** A wait before polling again after an event the gateway could not commit (the platform then delivers it again). */
const AFTER_REFUSED_COMMIT_MS = 100;

/**
 * Long-polls the platform's event stream and emits normalised events, reconnecting with backoff.
 * The cursor — the platform's acknowledgement — moves past an event only once the gateway
 * committed it; one it could not stays ahead of the cursor, so the next poll delivers it again.
 */
export class EventPoller {
  #stop = new AbortController();
  #loop: Promise<void> | undefined;
  readonly #reconnect = new Reconnect({ initialMs: 100, maxMs: 5_000, jitter: 0.5 });
  readonly #receiver: Receiver<WireEvent>;

  constructor(
    private readonly client: HttpClient,
    private readonly ctx: ChannelContext<MemoryConfig>,
    inbound: () => RefScope,
  ) {
    this.#receiver = createReceiver({
      channel: "memory channel",
      logger: ctx.logger,
      emit: (event) => ctx.emit(event),
      normalize: (event) => toInboundEvent(event, inbound()),
      redelivery: "platform",
    });
  }

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
    this.#loop = this.#run(seq, anySignal([this.#stop.signal, this.ctx.signal]));
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
        const receipts = await Promise.all(events.map((event) => this.#receiver.receive(event)));
        const refused = receipts.findIndex((receipt) => !acknowledges(receipt));
        for (const event of refused < 0 ? events : events.slice(0, refused)) seq = Math.max(seq, event.seq);
        if (events.length > 0) await this.ctx.store.set(CURSOR_KEY, seq);
        if (refused >= 0) await abortableDelay(AFTER_REFUSED_COMMIT_MS, signal);
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
