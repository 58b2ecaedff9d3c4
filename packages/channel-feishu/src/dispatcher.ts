import { type InboundEvent, isChorusError, type Logger } from "@chorus/core";
import * as lark from "@larksuiteoapi/node-sdk";
import { type InboundContext, normalizeMessage, normalizeReaction } from "./inbound.js";
import type { SdkLogger } from "./sdk-logger.js";

/** The events this channel subscribes to, as Feishu names them. */
export const FEISHU_EVENTS = [
  "im.message.receive_v1",
  "im.message.reaction.created_v1",
  "im.message.reaction.deleted_v1",
] as const;

/** What the dispatcher hands its events to. */
export interface DispatchTarget {
  /** Who the bot is while the instance runs; undefined before `start()` and after `stop()`. */
  context(): InboundContext | undefined;
  /** Resolves once the gateway committed the event; a rejection makes Feishu deliver it again. */
  emit(event: InboundEvent): Promise<void>;
  logger: Logger;
}

/**
 * The SDK's `EventDispatcher`, shared by both inbound paths: the long connection invokes it for
 * every event frame and the webhook handler for every verified delivery. Each event is
 * normalised and emitted. One it cannot read is a warning naming what was wrong (and is
 * acknowledged: sending it again would not help); one that failed for another reason (its chat
 * could not be looked up) throws, so Feishu delivers it again.
 */
export function createDispatcher(target: DispatchTarget, sdkLog: SdkLogger): lark.EventDispatcher {
  const handle =
    (type: string, normalize: (data: unknown, ctx: InboundContext) => Promise<InboundEvent | undefined>) =>
    async (data: unknown) => {
      const ctx = target.context();
      if (!ctx) throw new Error(`feishu: ${type} arrived while the channel is not running`);
      try {
        const event = await normalize(data, ctx);
        // The SDK acknowledges (HTTP 200, the long connection's ack) when this returns: after the commit.
        if (event) await target.emit(event);
      } catch (error) {
        const problem = error instanceof Error ? error.message : String(error);
        if (isChorusError(error) && error.code === "E_INVALID_INPUT") {
          target.logger.warn({ problem, eventType: type }, `feishu: skipped an event it cannot read: ${problem}`);
          return;
        }
        target.logger.warn(
          { problem, eventType: type },
          `feishu: could not handle ${type}, Feishu delivers it again: ${problem}`,
        );
        throw error;
      }
    };
  return new lark.EventDispatcher({ logger: sdkLog, loggerLevel: lark.LoggerLevel.info }).register({
    "im.message.receive_v1": handle("im.message.receive_v1", normalizeMessage),
    "im.message.reaction.created_v1": handle("im.message.reaction.created_v1", (data, ctx) =>
      normalizeReaction(data, "added", ctx),
    ),
    "im.message.reaction.deleted_v1": handle("im.message.reaction.deleted_v1", (data, ctx) =>
      normalizeReaction(data, "removed", ctx),
    ),
  });
}
