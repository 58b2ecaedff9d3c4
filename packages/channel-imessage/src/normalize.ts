import type { Conversation, InboundEvent, MessageRef, Participant } from "@chorus/core";
import { chatKind, directHandle, e164Of, handleId } from "./addresses.js";
import { parseTapbackType, TAPBACK_EMOJI, targetGuid } from "./vocabulary.js";
import type { BlueBubblesChat, BlueBubblesMessage } from "./wire.js";

/** Who this instance is: what every `MessageRef` and own-message check needs. */
export interface Identity {
  readonly channel: string;
  readonly accountId: string;
}

export interface NormalizeContext {
  who: Identity;
  /** Whether a message GUID is one of the bot's own (sent through Chorus or seen as `isFromMe`). */
  isOwn(guid: string): boolean;
  now: number;
}

/**
 * Turns one BlueBubbles message (from a `new-message` / `updated-message` hook) into a chorus
 * event: a tapback becomes a reaction event, anything else with text a chat message. Messages
 * of the bot's own account (`isFromMe`), and those without a chat, give nothing.
 */
export function toInboundEvent(message: BlueBubblesMessage, context: NormalizeContext): InboundEvent | undefined {
  if (message.isFromMe) return undefined;
  const chat = message.chats?.[0];
  if (!chat) return undefined;
  const conversation = conversationOf(chat);
  const sender = senderOf(message, chat);
  if (!sender) return undefined;
  const timestamp = message.dateCreated ?? context.now;
  const tapback = parseTapbackType(message.associatedMessageType);
  if (message.associatedMessageGuid && tapback) {
    const target = targetGuid(message.associatedMessageGuid);
    const emoji = tapback.kind === "emoji" ? message.associatedMessageEmoji : TAPBACK_EMOJI[tapback.kind];
    if (!emoji) return undefined;
    return {
      type: "reaction",
      eventId: `reaction:${message.guid}`,
      conversation,
      target: refOf(context.who, chat.guid, target.guid, context.isOwn(target.guid), target.part),
      emoji,
      action: tapback.removed ? "removed" : "added",
      actor: sender,
      timestamp,
    };
  }
  if (message.associatedMessageGuid) return undefined; // stickers and other associated rows
  const text = textOf(message);
  if (text === "") return undefined;
  const repliedTo = message.threadOriginatorGuid ? targetGuid(message.threadOriginatorGuid).guid : undefined;
  return {
    type: "message",
    eventId: `message:${message.guid}`,
    conversation,
    sender,
    text,
    // iMessage has no mentions: groups activate on patterns, the bot's number and replies to it.
    mentions: { bot: false, others: [] },
    ...(repliedTo ? { replyTo: { messageId: repliedTo, fromBot: context.isOwn(repliedTo) } } : {}),
    ref: refOf(context.who, chat.guid, message.guid, false),
    timestamp,
  };
}

/** The conversation a chat is: direct or group by its GUID, with the group's name and members. */
export function conversationOf(chat: BlueBubblesChat): Conversation {
  const kind = chatKind(chat.guid);
  const members = (chat.participants ?? []).map((handle) => participantOf(handle.address));
  const title = chat.displayName?.trim();
  return {
    id: chat.guid,
    kind,
    ...(kind === "group" && title ? { title } : {}),
    ...(members.length > 0 ? { members } : {}),
  };
}

/** The `MessageRef` of an iMessage (DESIGN §2.3): chat GUID + message GUID (+ part when not 0). */
export function refOf(who: Identity, chatGuid: string, guid: string, fromBot: boolean, part = 0): MessageRef {
  return {
    channel: who.channel,
    accountId: who.accountId,
    conversationId: chatGuid,
    messageId: guid,
    fromBot,
    ...(part !== 0 ? { data: { part } } : {}),
  };
}

function participantOf(address: string): Participant {
  const e164 = e164Of(address);
  return { id: handleId(address), ...(e164 ? { e164 } : {}) };
}

function senderOf(message: BlueBubblesMessage, chat: BlueBubblesChat): Participant | undefined {
  // A one-to-one chat names its person in the GUID when the hook carries no handle.
  const address = message.handle?.address ?? directHandle(chat.guid);
  return address ? participantOf(address) : undefined;
}

/** The text, without the U+FFFC placeholders of attachments; attachments named when there is no text. */
function textOf(message: BlueBubblesMessage): string {
  const text = (message.text ?? "").replace(/\uFFFC/gu, "").trim();
  if (text !== "") return text;
  const names = (message.attachments ?? []).map((a) => a.transferName ?? "file");
  return names.length > 0 ? `[attachment: ${names.join(", ")}]` : "";
}
