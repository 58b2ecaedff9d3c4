import { acknowledges, createReceiver } from "@chorus/channel-kit";
import { ChorusError, type InboundEvent, type Logger } from "@chorus/core";
import * as lark from "@larksuiteoapi/node-sdk";
import { type InboundContext, normalizeMessage, normalizeReaction } from "./inbound.js";
import type { SdkLogger } from "./sdk-logger.js";

/** The events this channel subscribes to, as Feishu names them. */
export const FEISHU_EVENTS = [
  "im.message.receive_v1",
  "im.message.reaction.created_v1",
  "im.message.reaction.deleted_v1",
] as const;

/** One event as the SDK's dispatcher hands it over: its type and its (decrypted, flattened) data. */
export interface FeishuDelivery {
  type: (typeof FEISHU_EVENTS)[number];
  data: unknown;
}

/** What the receiver hands its events to. */
export interface ReceiveTarget {
  /** Who the bot is while the instance runs; undefined before `start()` and after `stop()`. */
  context(): InboundContext | undefined;
  /** `ctx.emit`: resolves once the gateway committed the event. */
  emit(event: InboundEvent): Promise<void>;
  logger: Logger;
  /** `ctx.signal`. */
  signal: AbortSignal;
}

/** Why a handler threw: the event was not committed, so Feishu must push it again (the SDK logs this; it is routine). */
export const NOT_ACKNOWLEDGED = "not acknowledged: Feishu pushes it again";

/**
 * The one glue from a Feishu event to `ctx.emit` and Feishu's acknowledgement, shared by both
 * transports: the SDK's `EventDispatcher`, invoked by the long connection for every event frame
 * and by the webhook for every verified delivery, over the kit's receiver. Feishu pushes again
 * what was not answered successfully (`redelivery: "platform"`): a handler returns (the SDK
 * answers code 200, the webhook HTTP 200) only once the gateway committed the event, or there
 * was nothing to commit, or it cannot be read (the receiver's warning names why); it throws when
 * the commit failed or a lookup failed for now (the SDK answers code 500, the webhook 503).
 */
export function createReceive(target: ReceiveTarget, sdkLog: SdkLogger): lark.EventDispatcher {
  const receiver = createReceiver<FeishuDelivery>({
    channel: "feishu",
    logger: target.logger,
    emit: target.emit,
    redelivery: "platform",
    signal: target.signal,
    normalize: ({ type, data }) => {
      const ctx = target.context();
      if (!ctx) {
        throw new ChorusError("E_DISABLED", `${type} arrived while the channel is not running`, { retryable: true });
      }
      if (type === "im.message.receive_v1") return normalizeMessage(data, ctx);
      return normalizeReaction(data, type === "im.message.reaction.created_v1" ? "added" : "removed", ctx);
    },
  });
  const handle = (type: FeishuDelivery["type"]) => async (data: unknown) => {
    if (!acknowledges(await receiver.receive({ type, data }))) throw new Error(`feishu: ${type} ${NOT_ACKNOWLEDGED}`);
  };
  return new lark.EventDispatcher({ logger: sdkLog, loggerLevel: lark.LoggerLevel.info }).register({
    "im.message.receive_v1": handle("im.message.receive_v1"),
    "im.message.reaction.created_v1": handle("im.message.reaction.created_v1"),
    "im.message.reaction.deleted_v1": handle("im.message.reaction.deleted_v1"),
  });
}
