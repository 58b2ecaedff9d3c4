import { createReceiver, type Receiver } from "@chorus/channel-kit";
import { type InboundEvent, isChorusError } from "@chorus/core";
import { jidNormalizedUser, type WAMessageKey } from "@whiskeysockets/baileys";
import type { WASocket } from "./connection/socket.js";
import {
  contextInfoOf,
  type LookupDeps,
  messageDelivery,
  normalizeMessage,
  normalizeReactionUpdate,
  type ReactionMemory,
  reactionDelivery,
  textOf,
  unwrapContent,
  type WhatsAppDelivery,
} from "./inbound/index.js";

/** What the receiver of one instance needs from it. */
export interface WhatsAppReceiveDeps extends LookupDeps {
  readonly reactionMemory: ReactionMemory;
  /** `ctx.emit`: resolves once the gateway committed the event. */
  readonly emit: (event: InboundEvent) => Promise<void>;
  /** Sends read receipts for these messages on the open socket; absent when `sendReadReceipts` is off. */
  readonly markRead?: (keys: WAMessageKey[]) => Promise<void>;
  /** `ctx.signal`: events still kept when it aborts are let go (logged). */
  readonly signal: AbortSignal;
}

/**
 * The instance's receiver, on the kit's shared one. What tells WhatsApp that a message arrived
 * are receipts. Baileys sends the delivery receipt itself, as soon as it decrypted a message and
 * before it emits `messages.upsert` (7.0.0-rc14 `Socket/messages-recv.js`, `handleMessage`:
 * `sendReceipt` then `upsertMessage`), and has no option to hold it back. So WhatsApp never
 * delivers a message again, whatever its commit did: the receiver keeps an event whose commit
 * failed and emits it again until it is committed (`redelivery: "keep"`). The receipt the plugin
 * does send, the read receipt (`sendReadReceipts`), goes out only once the message is committed.
 */
export function createWhatsAppReceiver(deps: WhatsAppReceiveDeps): Receiver<WhatsAppDelivery> {
  return createReceiver<WhatsAppDelivery>({
    channel: "whatsapp",
    logger: deps.logger,
    emit: deps.emit,
    normalize: (delivery) => normalizeDelivery(delivery, deps),
    redelivery: "keep",
    signal: deps.signal,
  });
}

/**
 * Hands what one socket delivers to the receiver: messages and reactions, in the order WhatsApp
 * delivered them. Each batch is looked up in order, then received in one tick (so the gateway
 * commits it together); a later batch does not wait for an earlier one's commit. A redelivery
 * (WhatsApp sends a message again when its receipt was lost) is received again with the same
 * `eventId`, which the gateway drops. No check of its own runs first: a redelivery comes while
 * the group's metadata is still cached, so skipping it would save no lookup, and a set of seen
 * ids would not survive a restart anyway.
 */
export function attachReceiver(
  socket: WASocket,
  receiver: Receiver<WhatsAppDelivery>,
  deps: WhatsAppReceiveDeps,
): void {
  let queue: Promise<void> = Promise.resolve();
  const inOrder = (lookUp: () => Promise<(WhatsAppDelivery | undefined)[]>) => {
    queue = queue
      .then(async () => {
        for (const delivery of await lookUp()) if (delivery) receive(delivery);
      })
      .catch((error: unknown) => deps.logger.error({ err: error }, "whatsapp: receiving inbound events failed"));
  };
  const receive = (delivery: WhatsAppDelivery) => {
    receiver
      .receive(delivery)
      .then(async (receipt) => {
        if (receipt !== "committed" || delivery.kind !== "message" || delivery.message.key.fromMe) return;
        await deps.markRead?.([delivery.message.key]);
      })
      .catch((error: unknown) => deps.logger.debug({ err: error }, "whatsapp: could not send a read receipt"));
  };
  socket.ev.on("messages.upsert", ({ messages, type }) =>
    inOrder(async () => {
      const deliveries = [];
      for (const message of messages) deliveries.push(await messageDelivery(socket, deps, message, type));
      return deliveries;
    }),
  );
  socket.ev.on("messages.reaction", (updates) =>
    inOrder(async () => {
      const deliveries = [];
      for (const update of updates) deliveries.push(await reactionDelivery(socket, deps, update));
      return deliveries;
    }),
  );
}

/**
 * A delivery as the event for the gateway, or none (not input: logged at debug). Throws for a
 * message WhatsApp delivered but that cannot be read, naming it and why, and for a failed lookup.
 */
function normalizeDelivery(delivery: WhatsAppDelivery, deps: WhatsAppReceiveDeps): InboundEvent | undefined {
  if (delivery.kind === "failed") {
    if (isChorusError(delivery.error)) throw delivery.error;
    const problem = delivery.error instanceof Error ? delivery.error.message : String(delivery.error);
    throw new Error(`${delivery.what}: ${problem}`);
  }
  if (delivery.kind === "reaction") {
    const { update, context } = delivery;
    const result = normalizeReactionUpdate(update, context, deps.reactionMemory);
    if ("event" in result) return result.event;
    deps.logger.debug({ chat: update.key.remoteJid, reason: result.dropped }, "whatsapp: reaction not input");
    return undefined;
  }
  const { message, type, context } = delivery;
  const remoteJid = message.key.remoteJid ? jidNormalizedUser(message.key.remoteJid) : "";
  const result = normalizeMessage(message, type, context);
  if ("unreadable" in result) {
    const from = message.key.participant ?? message.key.remoteJid;
    throw new Error(`message ${message.key.id} from ${from} in ${remoteJid}: ${result.unreadable}`);
  }
  if ("dropped" in result) {
    deps.logger.debug({ id: message.key.id, chat: remoteJid, reason: result.dropped }, "whatsapp: message not input");
    return undefined;
  }
  const { event } = result;
  const content = unwrapContent(message.message);
  deps.disappearing.learn(remoteJid, contextInfoOf(content)?.expiration);
  const {
    remoteJid: chat,
    fromMe,
    participant,
  } = event.ref.data as {
    remoteJid: string;
    fromMe: boolean;
    participant?: string;
  };
  deps.log
    .record({
      remoteJid: chat,
      id: event.ref.messageId,
      fromMe,
      ...(participant ? { participant } : {}),
      fromBot: false,
      // What a quote of it shows: its text, or a note such as "[image] caption".
      text: textOf(content) ?? event.text,
    })
    .catch((error: unknown) => deps.logger.warn({ err: error }, "whatsapp: could not record a received message"));
  return event;
}
