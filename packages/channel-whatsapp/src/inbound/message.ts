import type { Conversation, InboundMessageEvent, Participant, ReplyContext } from "@chorus/core";
import {
  isJidGroup,
  isLidUser,
  jidNormalizedUser,
  type MessageUpsertType,
  proto,
  type WAMessage,
} from "@whiskeysockets/baileys";
import { ignoredChat, isBotJid, userOf } from "../jids.js";
import { attachmentsOf, captionOf } from "../media/index.js";
import { whatsappMessageRef } from "../ref.js";
import { contextInfoOf, type MentionLabel, resolveMentionPlaceholders, textOf, unwrapContent } from "./content.js";
import { mentionFacts } from "./mentions.js";
import {
  botParticipant,
  membersOf,
  type PeopleLookup,
  participantIdOf,
  participantOf,
  phoneJidOf,
} from "./participants.js";
import { millisOf } from "./time.js";

/** What normalizing a message needs besides the message. */
export interface InboundContext extends PeopleLookup {
  /** Whether the bot sent a message of this chat with this id through Chorus (the message log knows). */
  sentByBot(id: string): boolean;
  /**
   * Epoch ms: messages people sent since then that WhatsApp delivers late, as `append` (they
   * arrived while the device was offline), are input too. Absent: only `notify` is.
   */
  readonly catchUpSince?: number;
}

/**
 * A message as an event, why it is no input (`dropped`), or why it could not be read
 * (`unreadable`: WhatsApp delivered it, but its content could not be decrypted or decoded).
 */
export type NormalizedMessage =
  | { readonly event: InboundMessageEvent }
  | { readonly dropped: string }
  | { readonly unreadable: string };

/**
 * Turns one `messages.upsert` message into a Chorus message event (DESIGN §3), or says why it is
 * dropped: not live (`append`: history, own echoes — except people's messages that arrived while
 * the device was offline, within `catchUpSince`), status/broadcast/channel chats, the bot's
 * own sent messages, content that is not something said. Photos, videos, audio, voice notes,
 * documents, stickers, locations and contact cards are attachments (`attachmentsOf`), their
 * caption the text (empty without one). Messages the owner types on the phone
 * of the linked number (`fromMe`) are input in groups and in the chat with themselves; their
 * messages to other people are not.
 */
export function normalizeMessage(message: WAMessage, type: MessageUpsertType, ctx: InboundContext): NormalizedMessage {
  if (type !== "notify" && !caughtUp(message, type, ctx)) return { dropped: `not a live message (${type})` };
  const { key } = message;
  const remoteJid = key.remoteJid ? jidNormalizedUser(key.remoteJid) : "";
  if (remoteJid === "" || !key.id) return { dropped: "no chat or id" };
  const ignored = ignoredChat(remoteJid);
  if (ignored) return { dropped: ignored };
  if (ctx.sentByBot(key.id)) return { dropped: "the bot's own message" };
  const group = isJidGroup(remoteJid) === true;
  const fromMe = key.fromMe === true;
  if (fromMe && !group && !isBotJid(remoteJid, ctx.who)) return { dropped: "the owner's own message to someone else" };
  if (message.messageStubType === proto.WebMessageInfo.StubType.CIPHERTEXT) {
    // Baileys keeps why in the stub (a failed decryption, content that is not a message) and asks for it again.
    return { unreadable: message.messageStubParameters?.[0] || "its content could not be decrypted" };
  }
  const content = unwrapContent(message.message);
  // A medium is an attachment, and what the person wrote with it (a caption) the text.
  const attachments = attachmentsOf(content);
  const said = attachments.length > 0 ? (captionOf(content) ?? "") : textOf(content);
  if (said === undefined) return { dropped: "no text (protocol message, reaction, poll vote or empty)" };

  const senderJid = group ? key.participant : remoteJid;
  if (!fromMe && !senderJid) return { dropped: "no sender" };
  const sender: Participant = fromMe
    ? { ...botParticipant(ctx.who), ...nameIfMissing(ctx.who.name, message.pushName) }
    : participantOf(senderJid as string, ctx, {
        alt: group ? key.participantAlt : key.remoteJidAlt,
        pushName: message.pushName,
      });
  const info = contextInfoOf(content);
  const mentioned = (info?.mentionedJid ?? []).filter((jid): jid is string => typeof jid === "string" && jid !== "");
  const idOf = (jid: string) => participantIdOf(jid, ctx);
  const replyTo = replyOf(info, ctx);
  const participant = group ? (key.participant ?? (fromMe ? ctx.who.pn : undefined)) : undefined;
  const event: InboundMessageEvent = {
    type: "message",
    eventId: `wa:${remoteJid}:${key.id}`,
    conversation: conversationOf(remoteJid, group, fromMe ? undefined : sender, ctx),
    sender,
    text: resolveMentionPlaceholders(
      said,
      mentioned.map((jid) => labelOf(jid, ctx)),
    ),
    mentions: mentionFacts(mentioned, ctx.who, idOf),
    ...(attachments.length > 0 ? { attachments } : {}),
    ...(replyTo ? { replyTo } : {}),
    ref: whatsappMessageRef(ctx.who, { remoteJid, id: key.id, fromMe, ...(participant ? { participant } : {}) }, false),
    timestamp: millisOf(message.messageTimestamp, 1000) ?? Date.now(),
  };
  return { event };
}

/** A message someone sent while the device was offline, recent enough to still answer. */
function caughtUp(message: WAMessage, type: MessageUpsertType, ctx: InboundContext): boolean {
  if (type !== "append" || message.key.fromMe || ctx.catchUpSince === undefined) return false;
  const sent = millisOf(message.messageTimestamp, 1000);
  return sent !== undefined && sent >= ctx.catchUpSince;
}

function conversationOf(
  remoteJid: string,
  group: boolean,
  other: Participant | undefined,
  ctx: InboundContext,
): Conversation {
  if (!group) return { id: remoteJid, kind: "direct", ...(other?.name ? { title: other.name } : {}) };
  const members = membersOf(ctx);
  const title = ctx.group?.subject;
  return { id: remoteJid, kind: "group", ...(title ? { title } : {}), ...(members ? { members } : {}) };
}

/** The quoted message of a reply: its id, whether it was the bot's, its text and author. */
function replyOf(info: proto.IContextInfo | undefined, ctx: InboundContext): ReplyContext | undefined {
  const id = info?.stanzaId;
  if (!info || !id) return undefined;
  const author = info.participant ? jidNormalizedUser(info.participant) : undefined;
  const text = textOf(unwrapContent(info.quotedMessage));
  return {
    messageId: id,
    fromBot: isBotJid(author, ctx.who) || ctx.sentByBot(id),
    ...(text !== undefined ? { text } : {}),
    ...(author ? { senderId: participantIdOf(author, ctx) } : {}),
  };
}

/**
 * What the `@<number>` of a mentioned person becomes: their name where known, else their phone
 * number when the text carries an opaque LID, else it stays.
 */
function labelOf(jid: string, ctx: InboundContext): MentionLabel {
  const user = userOf(jid) ?? "";
  if (isBotJid(jid, ctx.who)) {
    return { user, ...(ctx.who.name ? { label: ctx.who.name } : isLidUser(jid) ? { label: userOf(ctx.who.pn) } : {}) };
  }
  const pn = phoneJidOf(jid, ctx);
  const name = (pn ? ctx.nameOf(pn) : undefined) ?? ctx.nameOf(jid);
  if (name) return { user, label: name };
  if (pn && isLidUser(jid)) return { user, label: userOf(pn) };
  return { user };
}

function nameIfMissing(known: string | undefined, pushName: string | null | undefined): { name?: string } {
  const name = known ?? pushName?.trim();
  return name ? { name } : {};
}
