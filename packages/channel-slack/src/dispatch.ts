import { withTimeout } from "@chorus/channel-kit";
import { type InboundEvent, isChorusError, type Logger } from "@chorus/core";

/** Slack wants an answer (HTTP 200, or a Socket Mode ack) within 3 s; this leaves room for the network. */
export const ACK_WITHIN_MS = 2_500;

/** Handles one Events API payload from either transport; never rejects. */
export type Dispatch = (payload: unknown) => Promise<void>;

/**
 * The one path from a payload to `ctx.emit`, shared by the HTTP endpoint and Socket Mode:
 * normalise (`normalize` is `inbound.ts` bound to the running bot), emit and wait for the
 * gateway's commit (the answer to Slack comes after it), and turn what cannot be read into a
 * warning that names the problem — never a silent drop.
 */
export function createDispatch(
  normalize: (payload: unknown) => Promise<InboundEvent | undefined>,
  emit: (event: InboundEvent) => Promise<void>,
  logger: Logger,
): Dispatch {
  return async (payload) => {
    try {
      const type = (payload as { type?: unknown } | null)?.type;
      if (type === "app_rate_limited") {
        logger.warn({ payload }, "slack: Slack dropped events: the app passed 30,000 events in an hour");
        return;
      }
      const event = await normalize(payload);
      if (!event) return;
      try {
        // Slack is answered (HTTP 200, the Socket Mode ack) after this: once the gateway committed the event.
        await emit(event);
      } catch (error) {
        logger.error({ err: error }, "slack: the gateway could not commit an event; Slack is answered anyway");
      }
    } catch (error) {
      const reason = isChorusError(error) || error instanceof SyntaxError ? error.message : String(error);
      logger.warn({ problem: reason }, `slack: skipped an event it cannot read: ${reason}`);
    }
  };
}

/** Waits for `work` at most `ms`; after that it goes on without holding up Slack's answer. */
export async function atMost(work: Promise<void>, ms = ACK_WITHIN_MS): Promise<void> {
  await withTimeout(work, ms, () => new Error("slow")).catch(() => undefined);
}
