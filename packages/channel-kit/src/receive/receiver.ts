import { type InboundEvent, isChorusError, type Logger } from "@chorus/core";
import { type BackoffPolicy, backoffDelay } from "../retry/backoff.js";
import { abortableDelay } from "../retry/delay.js";

/**
 * What became of one platform delivery, and so whether to acknowledge it:
 * - `committed`: every event it carried is committed by the gateway — acknowledge;
 * - `ignored`: it carried nothing for the gateway (the bot's own echo, an event type not used) — acknowledge;
 * - `unreadable`: it cannot be read (logged as a warning naming what is wrong, with the field
 *   `receipt: "unreadable"` the gateway counts it by); delivering it again would not help — acknowledge;
 * - `kept` (only with `settleWhenKept`): an event could not be committed yet and the receiver keeps
 *   it, emitting it again until it is — acknowledge (the platform would never deliver it again anyway);
 * - `not-committed`: an event could not be committed (the gateway refused or failed it) — do not
 *   acknowledge: the platform delivers it again (a webhook's 5xx, an offset left where it was, no
 *   socket ack). Where the platform has no redelivery the receiver keeps the event and emits it
 *   again, so this comes only when it gave up (at stop, or with too many events kept).
 */
export type Receipt = "committed" | "ignored" | "unreadable" | "kept" | "not-committed";

/** Whether a platform delivery with this receipt is acknowledged. */
export function acknowledges(receipt: Receipt): boolean {
  return receipt !== "not-committed";
}

/** How the platform treats a delivery that was not acknowledged. */
export type Redelivery =
  /** It delivers it again (webhooks retried on a 5xx, poll offsets, socket acks). */
  | "platform"
  /** It never does (a gateway or socket stream without acks): the receiver keeps the event and emits it again. */
  | "keep";

export interface ReceiverOptions<D> {
  /** The channel's label in log lines (`slack`). */
  channel: string;
  logger: Logger;
  /** `ctx.emit`: resolves once the gateway committed the event, rejects when it could not. */
  emit(event: InboundEvent): Promise<void>;
  /**
   * One platform delivery → the events for the gateway (none: nothing for it). Throws when the
   * delivery cannot be read (`unreadable`); a retryable `ChorusError` (a platform lookup that
   * failed for now) counts as `not-committed` instead, so it is tried again.
   */
  normalize(
    delivery: D,
  ): InboundEvent | readonly InboundEvent[] | undefined | Promise<InboundEvent | readonly InboundEvent[] | undefined>;
  redelivery: Redelivery;
  /** `keep`: waits between emitting a kept event again (default 0.25 s doubling to 30 s). */
  backoff?: BackoffPolicy;
  /** `keep`: events kept at most at once; beyond it an event that fails is dropped with an error (default 1,000). */
  maxKept?: number;
  /**
   * `keep`: `receive` resolves `kept` as soon as an event of the delivery is kept, instead of once it
   * is committed (a webhook is answered within the platform's timeout; the event is emitted again
   * in the background). Leave it off where the acknowledgement must wait for the commit (receipts).
   */
  settleWhenKept?: boolean;
  /** Aborted when the instance stops: kept events are let go (logged). */
  signal?: AbortSignal;
}

const KEEP_BACKOFF: BackoffPolicy = { initialMs: 250, maxMs: 30_000, jitter: 0.2 };
const MAX_KEPT = 1_000;
/** `keep`: how often a delivery whose reading failed for now (a retryable error) is read again before it is given up. */
const MAX_READ_ATTEMPTS = 10;

/** The one path from a platform delivery to `ctx.emit` and the decision to acknowledge it (DESIGN §3). */
export interface Receiver<D> {
  /** Normalises a delivery, emits its events in order and resolves with its receipt (see `Receipt`). */
  receive(delivery: D): Promise<Receipt>;
  /** Events kept now to be emitted again (`redelivery: "keep"`). */
  readonly kept: number;
}

/** Creates the receiver of one channel instance. */
export function createReceiver<D>(options: ReceiverOptions<D>): Receiver<D> {
  const { channel, logger } = options;
  let kept = 0;

  /** Emits `event` until it is committed (`keep`), or once (`platform`); true when it was committed. `onKept` is told when it is kept. */
  const commit = async (event: InboundEvent, onKept: () => void): Promise<boolean> => {
    let attempt = 0;
    let holding = false;
    try {
      for (;;) {
        try {
          await options.emit(event);
          if (attempt > 0)
            logger.info(
              { eventId: event.eventId, attempts: attempt + 1 },
              `${channel}: an event kept after a failed commit is committed`,
            );
          return true;
        } catch (error) {
          attempt++;
          if (options.redelivery === "platform") {
            logger.warn(
              { err: error, eventId: event.eventId },
              `${channel}: the gateway could not commit an event; it is not acknowledged, so the platform delivers it again`,
            );
            return false;
          }
          if (!holding) {
            if (kept >= (options.maxKept ?? MAX_KEPT)) {
              logger.error(
                { err: error, eventId: event.eventId, kept },
                `${channel}: the gateway could not commit an event and ${kept} are kept already: this one is dropped`,
              );
              return false;
            }
            holding = true;
            kept++;
            onKept();
            logger.warn(
              { err: error, eventId: event.eventId },
              `${channel}: the gateway could not commit an event; it is kept and emitted again until it is`,
            );
          }
          if (!options.signal?.aborted)
            await abortableDelay(backoffDelay(attempt, options.backoff ?? KEEP_BACKOFF), options.signal);
          // Stopped, now or while it waited: it is not emitted once more on the way out.
          if (options.signal?.aborted) {
            logger.error(
              { eventId: event.eventId },
              `${channel}: stopped with an event the gateway never committed: it is dropped`,
            );
            return false;
          }
        }
      }
    } finally {
      if (holding) kept--;
    }
  };

  return {
    get kept() {
      return kept;
    },
    async receive(delivery) {
      let normalized: InboundEvent | readonly InboundEvent[] | undefined;
      for (let attempt = 1; ; attempt++) {
        try {
          normalized = await options.normalize(delivery);
          break;
        } catch (error) {
          if (!(isChorusError(error) && error.retryable)) {
            const problem = error instanceof Error ? error.message : String(error);
            // `receipt` is the known field the gateway counts unreadable deliveries by.
            logger.warn(
              { receipt: "unreadable", problem },
              `${channel}: skipped a delivery it cannot read: ${problem}`,
            );
            return "unreadable";
          }
          // A lookup that failed for now: the platform delivers it again, or (keep) it is read again here.
          if (options.redelivery === "platform" || options.signal?.aborted || attempt > MAX_READ_ATTEMPTS) {
            logger.warn(
              { err: error, attempts: attempt },
              `${channel}: could not read a delivery (${error.message}); it is not acknowledged`,
            );
            return "not-committed";
          }
          await abortableDelay(backoffDelay(attempt, options.backoff ?? KEEP_BACKOFF), options.signal);
        }
      }
      const events: readonly InboundEvent[] =
        normalized === undefined ? [] : Array.isArray(normalized) ? normalized : [normalized as InboundEvent];
      if (events.length === 0) return "ignored";
      // Emitted in order in one tick, so the gateway commits them together; each is kept on its own.
      if (!options.settleWhenKept) return receiptOf(events.map((event) => commit(event, () => {})));
      let told: (receipt: Receipt) => void = () => {};
      const keptNow = new Promise<Receipt>((resolve) => {
        told = resolve;
      });
      return Promise.race([receiptOf(events.map((event) => commit(event, () => told("kept")))), keptNow]);
    },
  };
}

/** `committed` once every event of a delivery was committed, else `not-committed` (one event: no `Promise.all`). */
function receiptOf(commits: readonly Promise<boolean>[]): Promise<Receipt> {
  const receipt = (committed: boolean): Receipt => (committed ? "committed" : "not-committed");
  if (commits.length === 1) return (commits[0] as Promise<boolean>).then(receipt);
  return Promise.all(commits).then((committed) => receipt(committed.every(Boolean)));
}
