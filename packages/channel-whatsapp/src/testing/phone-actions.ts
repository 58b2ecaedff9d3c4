import { isJidGroup, isJidStatusBroadcast, normalizeMessageContent, proto } from "@whiskeysockets/baileys";
import type { FakeContext } from "./context.js";
import type { Member } from "./directory.js";
import { fakeInputError } from "./errors.js";
import { newMessageId, phoneMessageStanza } from "./inbound.js";
import type { FakeKey } from "./message-store.js";

/** What a phone sends: plain `text` (optionally with mentions or as a reply), or any `message`. */
export interface PhoneMessageInput {
  text?: string;
  /** Any content, sent as is (wrappers such as `ephemeralMessage` or `viewOnceMessage` included). */
  message?: proto.IMessage;
  /** Who `text` mentions: JIDs as given, or phones (turned into the JID the chat addresses them by). */
  mentions?: string[];
  /** Id of a message in the same chat that `text` replies to. */
  replyTo?: string;
  /** Default: a new WhatsApp-style id. */
  id?: string;
  /** Seconds since the epoch; default now. */
  timestamp?: number;
}

/** The message a reaction points at, from the reacting phone's point of view. */
export interface ReactionTarget {
  id: string;
  /** Whether the reactor wrote the target; default: looked up in the chat. */
  fromMe?: boolean;
  /** The target's author in a group; default: looked up in the chat. */
  participant?: string;
}

/**
 * Where a person's message goes: a group, their status (`status@broadcast`), or (no chat, or the
 * bot's JID) their direct chat with the bot.
 */
export function personChat(ctx: FakeContext, person: Member, chat: string | undefined): string {
  if (chat === undefined || ctx.directory.isBot(chat)) return person.jid;
  if (!isJidGroup(chat) && !isJidStatusBroadcast(chat)) {
    throw fakeInputError(`a person writes to the bot, to a group or to status@broadcast, not to ${chat}`);
  }
  return chat;
}

/** A phone (a person's, or the bot account's own) writes to `chat`; the bot's devices receive it. */
export function sendFromPhone(ctx: FakeContext, sender: Member, chat: string, input: PhoneMessageInput): FakeKey {
  assertMember(ctx, sender, chat);
  const message = input.message ?? textMessage(ctx, chat, input);
  const id = input.id ?? newMessageId();
  const timestamp = input.timestamp ?? Math.floor(Date.now() / 1000);
  const { stanza, key } = phoneMessageStanza(ctx.directory, { sender, chat, message, id, timestamp });
  const reaction = normalizeMessageContent(message)?.reactionMessage;
  if (reaction?.key?.id) ctx.store.react(chat, reaction.key.id, sender.jid, reaction.text ?? "");
  else if (!reaction) {
    ctx.store.add({ id, chat, sender: sender.jid, origin: sender.isBot ? "owner" : "person", raw: message, timestamp });
  }
  ctx.delivery.deliver(stanza);
  return key;
}

/** Bytes no protobuf reader accepts: a varint that never ends (protobufjs fails on it; it reads a cut-off string). */
const DAMAGED_TAIL = Buffer.alloc(11, 0xff);

/**
 * A phone's message that arrives damaged: its `<plaintext>` is a message followed by bytes that
 * are no protobuf, which Baileys cannot decode (it hands it over as a CIPHERTEXT stub and asks for
 * it again). Not filed: nobody can read it.
 */
export function sendUnreadableFromPhone(ctx: FakeContext, sender: Member, chat: string): FakeKey {
  assertMember(ctx, sender, chat);
  const message: proto.IMessage = { conversation: "a message damaged on its way" };
  const input = { sender, chat, message, id: newMessageId(), timestamp: Math.floor(Date.now() / 1000) };
  const { stanza, key } = phoneMessageStanza(ctx.directory, input);
  const bytes = Buffer.concat([proto.Message.encode(message).finish(), DAMAGED_TAIL]);
  stanza.content = [{ tag: "plaintext", attrs: {}, content: bytes }];
  ctx.delivery.deliver(stanza);
  return key;
}

/** A phone sets its single reaction on a message in `chat` (empty emoji removes it). */
export function reactFromPhone(
  ctx: FakeContext,
  reactor: Member,
  chat: string,
  target: string | ReactionTarget,
  emoji: string,
): FakeKey {
  assertMember(ctx, reactor, chat);
  const wanted: ReactionTarget = typeof target === "string" ? { id: target } : target;
  const stored = ctx.store.find(chat, wanted.id);
  const author = stored ? ctx.directory.memberByJid(stored.sender) : undefined;
  const key: proto.IMessageKey = {
    remoteJid: isJidGroup(chat) || reactor.isBot ? chat : ctx.directory.bot.jid,
    fromMe: wanted.fromMe ?? author === reactor,
    id: wanted.id,
  };
  if (isJidGroup(chat)) {
    const participant =
      wanted.participant ??
      (author ? ctx.directory.addressOf(author, ctx.directory.group(chat).addressingMode) : undefined);
    if (participant) key.participant = participant;
  }
  const message: proto.IMessage = { reactionMessage: { key, text: emoji, senderTimestampMs: Date.now() } };
  const id = newMessageId();
  const timestamp = Math.floor(Date.now() / 1000);
  const { stanza, key: reactionKey } = phoneMessageStanza(ctx.directory, {
    sender: reactor,
    chat,
    message,
    id,
    timestamp,
  });
  ctx.store.react(chat, wanted.id, reactor.jid, emoji);
  ctx.delivery.deliver(stanza);
  return reactionKey;
}

function assertMember(ctx: FakeContext, sender: Member, chat: string): void {
  if (!isJidGroup(chat)) return;
  if (!ctx.directory.group(chat).participants.includes(sender.phone)) {
    throw fakeInputError(`${sender.phone} is not a participant of ${chat}`);
  }
}

function textMessage(ctx: FakeContext, chat: string, input: PhoneMessageInput): proto.IMessage {
  const { text, mentions, replyTo } = input;
  if (text === undefined) throw fakeInputError("a phone message needs `text` or `message`");
  if (!mentions?.length && replyTo === undefined) return { conversation: text };
  const contextInfo: proto.IContextInfo = {};
  if (mentions?.length) contextInfo.mentionedJid = mentions.map((mention) => mentionJid(ctx, chat, mention));
  if (replyTo !== undefined) {
    const quoted = ctx.store.find(chat, replyTo);
    if (!quoted) throw fakeInputError(`no message ${replyTo} in ${chat} to reply to`);
    const author = ctx.directory.memberByJid(quoted.sender);
    contextInfo.stanzaId = replyTo;
    contextInfo.participant =
      author && isJidGroup(chat)
        ? ctx.directory.addressOf(author, ctx.directory.group(chat).addressingMode)
        : quoted.sender;
    contextInfo.quotedMessage = quoted.raw;
  }
  return { extendedTextMessage: { text, contextInfo } };
}

function mentionJid(ctx: FakeContext, chat: string, mention: string): string {
  if (mention.includes("@")) return mention;
  const member = ctx.directory.memberByPhone(mention);
  return isJidGroup(chat) ? ctx.directory.addressOf(member, ctx.directory.group(chat).addressingMode) : member.jid;
}
