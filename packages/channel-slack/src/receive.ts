import { acknowledges, createReceiver, withTimeout } from "@chorus/channel-kit";
import type { InboundEvent, Logger } from "@chorus/core";

/** Slack wants its answer (HTTP 2xx, or a Socket Mode ack) within 3 s; this leaves room for the network. */
export const ACK_WITHIN_MS = 2_500;

/**
 * One Events API body from either transport (over HTTP its raw text, which may not be JSON at
 * all) → `ctx.emit`; resolves true when Slack is to be acknowledged, false when it must deliver
 * the body again. Never rejects.
 */
export type Receive = (payload: unknown) => Promise<boolean>;

/** What the receiver of one running workspace needs. */
export interface ReceiveOptions {
  /** `inbound.ts` bound to the running bot: one payload → its event, or none for the gateway. */
  normalize(payload: unknown): Promise<InboundEvent | undefined>;
  /** `ctx.emit`: resolves once the gateway committed the event. */
  emit(event: InboundEvent): Promise<void>;
  logger: Logger;
  /** `ctx.signal`. */
  signal: AbortSignal;
}

/**
 * The one glue from a Slack delivery, over HTTP (`webhook.ts`) or Socket Mode (`socket.ts`), to
 * `ctx.emit` and Slack's acknowledgement, on the kit's receiver. Slack delivers again what was
 * not answered 2xx or acked in time (`redelivery: "platform"`), so a body is acknowledged only
 * once the gateway committed its event (or there was nothing to commit, or it cannot be read);
 * one whose commit failed, or did not finish within Slack's window, is not, and comes back as a
 * retry with the same ids, which the gateway drops if the first commit did land after all.
 */
export function createReceive(options: ReceiveOptions): Receive {
  const { logger } = options;
  const receiver = createReceiver<unknown>({
    channel: "slack",
    logger,
    emit: options.emit,
    redelivery: "platform",
    signal: options.signal,
    normalize: (delivery) => {
      // Thrown here (not JSON, not Slack's shape), the receiver warns naming the problem and Slack is acknowledged.
      const payload: unknown = typeof delivery === "string" ? JSON.parse(delivery) : delivery;
      if ((payload as { type?: unknown } | null)?.type === "app_rate_limited") {
        logger.warn({ payload }, "slack: Slack dropped events: the app passed 30,000 events in an hour");
        return undefined;
      }
      return options.normalize(payload);
    },
  });
  return async (payload) => {
    const receipt = await withTimeout(receiver.receive(payload), ACK_WITHIN_MS, () => new Error("slow")).catch(
      () => undefined,
    );
    if (receipt === undefined) {
      // Still committing: not claimed as received. Slack retries; the gateway drops the repeat if this commit lands.
      logger.warn(
        { withinMs: ACK_WITHIN_MS },
        `slack: the gateway did not commit an event within ${ACK_WITHIN_MS} ms; it is not acknowledged, so Slack delivers it again`,
      );
      return false;
    }
    return acknowledges(receipt);
  };
}
