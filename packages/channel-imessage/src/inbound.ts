import {
  type Attachment,
  type Conversation,
  type InboundEvent,
  type InboundMessageEvent,
  type MessageRef,
  mintRef,
  type Participant,
  type RefScope,
} from "@chorus/core";
import { chatKind, directHandle, e164Of, handleId } from "./addresses.js";
import { attachmentsOf } from "./attachments.js";
import { emojiOfTapbackText, parseTapbackType, TAPBACK_EMOJI, targetGuid } from "./vocabulary.js";
import type { BlueBubblesChat, BlueBubblesMessage } from "./wire.js";

/** What normalising needs besides the message: the ref scope and which GUIDs are the bot's. */
export interface NormalizeContext {
  scope: RefScope;
  /** Whether a message GUID is one of the bot's own (its replies and tapbacks are to the bot). */
  isOwn(guid: string): boolean;
  now: number;
}

/**
 * What one message row means: an event; nothing, by design (`ignored` says why, for a debug
 * line); or a row the plugin cannot make sense of (`problem` names what is wrong, for a warning).
 */
export type Normalized = { event: InboundEvent } | { ignored: string } | { problem: string };

/**
 * Turns one BlueBubbles message row of `chat` into a chorus event (DESIGN §3): a tapback row
 * becomes a reaction event (its `Loved “…”` text is never a message), a sticker row a message
 * with the sticker, any other row with text or attachments a chat message (a message may be
 * attachments only, its text ""). The bot's own rows (`isFromMe`) give nothing.
 */
export function normalizeMessage(
  message: BlueBubblesMessage,
  chat: BlueBubblesChat,
  context: NormalizeContext,
): Normalized {
  if (message.isFromMe) return { ignored: "the bot's own message" };
  // A one-to-one chat names its person in the GUID when the row carries no handle.
  const address = message.handle?.address ?? directHandle(chat.guid);
  if (!address) return { problem: `message ${message.guid} names no sender (no handle, and a group chat)` };
  const sender = participantOf(address);
  const conversation = conversationOf(chat, sender);
  const timestamp = message.dateCreated ?? context.now;
  if (isSticker(message)) return stickerOf(message, conversation, sender, timestamp, context);
  if (isAssociated(message)) return tapbackOf(message, conversation, sender, timestamp, context);
  const text = textOf(message);
  const attachments = attachmentsOf(message.attachments ?? []);
  if (text === "" && attachments.length === 0) {
    return { ignored: `message ${message.guid} has no text and no attachment` };
  }
  const repliedTo = message.threadOriginatorGuid ? targetGuid(message.threadOriginatorGuid).guid : undefined;
  return { event: messageEvent(message, conversation, sender, { text, attachments, repliedTo, timestamp }, context) };
}

/**
 * The conversation a chat is: direct or group by its GUID (or style), with the group's name and
 * members. A direct chat's members are its person: BlueBubbles never lists them for direct chats.
 */
export function conversationOf(chat: BlueBubblesChat, sender?: Participant): Conversation {
  const kind = chatKind(chat.guid, chat.style);
  const listed = (chat.participants ?? []).map((handle) => participantOf(handle.address));
  const members = listed.length === 0 && kind === "direct" && sender ? [sender] : listed;
  const title = chat.displayName?.trim();
  return {
    id: chat.guid,
    kind,
    ...(kind === "group" && title ? { title } : {}),
    ...(members.length > 0 ? { members } : {}),
  };
}

/** The `MessageRef` of an iMessage (DESIGN §2.3): chat GUID + message GUID (+ part when not 0). */
export function imessageRef(scope: RefScope, chatGuid: string, guid: string, fromBot: boolean, part = 0): MessageRef {
  return mintRef(scope, {
    conversationId: chatGuid,
    messageId: guid,
    fromBot,
    ...(part !== 0 ? { data: { part } } : {}),
  });
}

/** A chat message event of a row: its text, its files, the message it answers. */
function messageEvent(
  message: BlueBubblesMessage,
  conversation: Conversation,
  sender: Participant,
  content: { text: string; attachments: Attachment[]; repliedTo: string | undefined; timestamp: number },
  context: NormalizeContext,
): InboundMessageEvent {
  const { text, attachments, repliedTo, timestamp } = content;
  return {
    type: "message",
    eventId: `message:${message.guid}`,
    conversation,
    sender,
    text,
    // iMessage has no mentions: groups activate on patterns, the bot's number and replies to it.
    mentions: { bot: false, others: [] },
    ...(attachments.length > 0 ? { attachments } : {}),
    ...(repliedTo ? { replyTo: { messageId: repliedTo, fromBot: context.isOwn(repliedTo) } } : {}),
    ref: imessageRef(context.scope, conversation.id, message.guid, false),
    timestamp,
  };
}

/** A sticker placed on a message (`associatedMessageType` "sticker", chat.db 1000). */
function isSticker(message: BlueBubblesMessage): boolean {
  const type = message.associatedMessageType;
  return type === "sticker" || String(type) === "1000";
}

/**
 * A sticker someone placed on a message: a message whose attachment is the sticker, answering the
 * message it sits on (the BlueBubbles app shows these rows as stickers: `Message.isSticker`). A
 * row without its file shows nothing, and gives nothing.
 */
function stickerOf(
  message: BlueBubblesMessage,
  conversation: Conversation,
  sender: Participant,
  timestamp: number,
  context: NormalizeContext,
): Normalized {
  const attachments = attachmentsOf(message.attachments ?? [], true);
  if (attachments.length === 0) return { ignored: `message ${message.guid} is a sticker without its file` };
  const on = message.associatedMessageGuid ? targetGuid(message.associatedMessageGuid).guid : undefined;
  return {
    event: messageEvent(message, conversation, sender, { text: "", attachments, repliedTo: on, timestamp }, context),
  };
}

/** A row that points at another message: a tapback, or a kind this plugin does not know. */
function isAssociated(message: BlueBubblesMessage): boolean {
  const type = message.associatedMessageType;
  const typed = type !== null && type !== undefined && String(type).trim() !== "" && String(type) !== "0";
  return typed || Boolean(message.associatedMessageGuid);
}

function tapbackOf(
  message: BlueBubblesMessage,
  conversation: Conversation,
  actor: Participant,
  timestamp: number,
  context: NormalizeContext,
): Normalized {
  const type = message.associatedMessageType;
  const tapback = parseTapbackType(type);
  if (!tapback) {
    return { problem: `message ${message.guid} has an associatedMessageType this plugin does not know: ${show(type)}` };
  }
  if (!message.associatedMessageGuid) {
    return { problem: `tapback ${message.guid} (${show(type)}) names no associatedMessageGuid` };
  }
  const emoji =
    tapback.kind === "emoji"
      ? (message.associatedMessageEmoji ?? emojiOfTapbackText(message.text))
      : TAPBACK_EMOJI[tapback.kind];
  if (!emoji) return { problem: `emoji tapback ${message.guid} carries no emoji (text ${show(message.text)})` };
  const target = targetGuid(message.associatedMessageGuid);
  return {
    event: {
      type: "reaction",
      eventId: `reaction:${message.guid}`,
      conversation,
      target: imessageRef(context.scope, conversation.id, target.guid, context.isOwn(target.guid), target.part),
      emoji,
      action: tapback.removed ? "removed" : "added",
      actor,
      timestamp,
    },
  };
}

function participantOf(address: string): Participant {
  const e164 = e164Of(address);
  return { id: handleId(address), ...(e164 ? { e164 } : {}) };
}

/** The text, without the U+FFFC placeholders of its attachments (which are its `attachments`). */
function textOf(message: BlueBubblesMessage): string {
  return (message.text ?? "").replace(/\uFFFC/gu, "").trim();
}

function show(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}
