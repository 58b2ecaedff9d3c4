import type { InboundMessageEvent } from "@chorus/core";
import type { ChannelEntry } from "../channels/index.js";
import type { MessageIndex } from "../state/index.js";
import type { MediaUnderstanding } from "../understand/index.js";
import type { GateInput } from "./decide.js";

// What the handle step looks up for a message before the decide step: whom it replies to, and its media.

/**
 * A reply to a message the bot sent is a reply to the bot, also when the plugin cannot tell
 * (a platform that names only the replied-to id): the index knows every message the bot sent.
 * Only such a reply needs the lookup; any other message is `event` as it is, without a promise.
 */
export function withReplyFromIndex(
  index: MessageIndex,
  entry: ChannelEntry,
  event: InboundMessageEvent,
): InboundMessageEvent | Promise<InboundMessageEvent> {
  const reply = event.replyTo;
  if (!reply || reply.fromBot) return event;
  return attributedReply(index, entry, event, reply);
}

async function attributedReply(
  index: MessageIndex,
  entry: ChannelEntry,
  event: InboundMessageEvent,
  reply: NonNullable<InboundMessageEvent["replyTo"]>,
): Promise<InboundMessageEvent> {
  const known = await index.get({
    channel: entry.plugin.id,
    accountId: entry.accountId,
    conversationId: event.conversation.id,
    messageId: reply.messageId,
  });
  return known?.fromBot === true ? { ...event, replyTo: { ...reply, fromBot: true } } : event;
}

/** The attachments of a message and of the buffered messages before it, for the decide step. */
export function mediaOf(
  media: MediaUnderstanding | undefined,
  entry: ChannelEntry,
  row: number,
  event: InboundMessageEvent,
  signal: AbortSignal,
): Pick<GateInput, "media" | "mediaOf"> {
  if (!media) return {};
  return {
    // A message without attachments has nothing to read (most group chatter): no reader made for it.
    ...(event.attachments !== undefined && event.attachments.length > 0
      ? { media: media.of({ source: entry, row, event, signal }) }
      : {}),
    mediaOf: (buffered) =>
      media.of({ source: entry, row: buffered.id, event: buffered.event as InboundMessageEvent, signal }),
  };
}
