import { abortableDelay, acknowledges, createReceiver, type HttpClient, Reconnect } from "@chorus/channel-kit";
import type { ChannelContext, Logger, RefScope } from "@chorus/core";
import type { HelloConfig } from "./config.js";
import { normalizeEvent } from "./inbound.js";

/** The store key of the last event the platform was told the bot has (its acknowledgement). */
const CURSOR = "cursor";

/**
 * Long-polls `GET /v1/events?after=<cursor>` and hands what comes to the kit's receiver. The
 * cursor is the platform's acknowledgement: it moves past an event only once the gateway committed
 * it (`ctx.emit` resolved), so one it could not commit comes again with the next poll
 * (`redelivery: "platform"`).
 */
export function createPoller(
  ctx: ChannelContext<HelloConfig>,
  client: HttpClient,
  scope: () => RefScope,
  logger: Logger,
) {
  const receiver = createReceiver<unknown>({
    channel: "hello",
    logger,
    emit: (event) => ctx.emit(event),
    // Throws for an event it cannot read: the receiver warns, naming the problem, and acknowledges it.
    normalize: (event) => normalizeEvent(event, scope()),
    redelivery: "platform",
    signal: ctx.signal,
  });
  const reconnect = new Reconnect({ initialMs: 100, maxMs: 5_000, jitter: 0.5 });
  let stop = new AbortController();
  let loop: Promise<void> | undefined;

  const poll = async (signal: AbortSignal) => {
    let cursor = (await ctx.store.get<number>(CURSOR)) ?? 0;
    while (!signal.aborted) {
      try {
        const { events } = await client.request<{ events: { seq: number }[] }>({
          method: "GET",
          path: "/v1/events",
          query: { after: cursor, waitMs: ctx.config.pollWaitMs },
          operation: "poll for events",
          timeoutMs: ctx.config.pollWaitMs + ctx.config.timeoutMs,
          signal,
        });
        reconnect.succeeded();
        // Received together, so the gateway commits them together; the cursor stops before the first not acknowledged.
        const receipts = await Promise.all(events.map((event) => receiver.receive(event)));
        const missing = receipts.findIndex((receipt) => !acknowledges(receipt));
        const acknowledged = missing < 0 ? events : events.slice(0, missing);
        cursor = acknowledged.at(-1)?.seq ?? cursor;
        if (acknowledged.length > 0) await ctx.store.set(CURSOR, cursor);
        if (missing >= 0) await abortableDelay(250, signal);
      } catch (error) {
        if (signal.aborted) return;
        await abortableDelay(reconnect.failed(`event poll failed: ${(error as Error).message}`), signal);
      }
    }
  };

  return {
    async start() {
      stop = new AbortController();
      loop = poll(AbortSignal.any([stop.signal, ctx.signal]));
    },
    async stop() {
      stop.abort();
      await loop;
    },
    /** Why the platform cannot be polled right now, or undefined. */
    problem: () => reconnect.problem,
  };
}
