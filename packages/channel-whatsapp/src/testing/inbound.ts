import { randomBytes } from "node:crypto";
import {
  type BinaryNode,
  isJidGroup,
  isJidStatusBroadcast,
  normalizeMessageContent,
  proto,
} from "@whiskeysockets/baileys";
import type { Directory, Member } from "./directory.js";
import type { FakeKey } from "./message-store.js";

/** A message someone's phone sends to a chat the bot is in. */
export interface OutgoingFromPhone {
  sender: Member;
  /** Resolved chat: a group JID or a person's phone-number JID. */
  chat: string;
  message: proto.IMessage;
  id: string;
  /** Seconds since the epoch. */
  timestamp: number;
}

/** A message id in the style of WhatsApp phones (`3EB0…`, 20 hex digits). */
export function newMessageId(): string {
  return `3EB0${randomBytes(8).toString("hex").toUpperCase()}`;
}

/** The stanza type attribute WhatsApp gives a message with this content. */
function stanzaType(message: proto.IMessage): string {
  const content = normalizeMessageContent(message);
  if (content?.reactionMessage) return "reaction";
  if (
    content?.imageMessage ||
    content?.videoMessage ||
    content?.audioMessage ||
    content?.documentMessage ||
    content?.stickerMessage
  ) {
    return "media";
  }
  return "text";
}

/**
 * The `<message>` stanza the bot's device receives for a message written on a phone, and the key
 * Baileys will give it. Content travels in `<plaintext>` (which Baileys accepts) instead of a
 * Signal ciphertext; addressing follows the chat: PN or LID, with the other one as the alternate.
 */
export function phoneMessageStanza(
  directory: Directory,
  input: OutgoingFromPhone,
): { stanza: BinaryNode; key: FakeKey } {
  const { sender, chat, id } = input;
  const attrs: Record<string, string> = {
    id,
    t: String(input.timestamp),
    type: stanzaType(input.message),
    notify: sender.name,
  };
  let key: FakeKey;
  if (isJidGroup(chat)) {
    const mode = directory.group(chat).addressingMode;
    const participant = directory.addressOf(sender, mode);
    Object.assign(attrs, { from: chat, participant, addressing_mode: mode });
    if (mode === "lid") attrs.participant_pn = sender.jid;
    else attrs.participant_lid = sender.lidJid;
    key = { remoteJid: chat, id, fromMe: sender.isBot, participant };
  } else if (isJidStatusBroadcast(chat)) {
    // A status update: from the broadcast list, authored by the participant.
    Object.assign(attrs, { from: chat, participant: sender.jid });
    key = { remoteJid: chat, id, fromMe: sender.isBot, participant: sender.jid };
  } else if (sender.isBot) {
    // The account's owner writes from their phone: delivered to the companion as "from me, to <chat>".
    const peer = directory.memberByJid(chat);
    const recipient = peer ? directory.addressOf(peer, peer.addressing) : chat;
    Object.assign(attrs, { from: sender.jid });
    if (recipient !== sender.jid) attrs.recipient = recipient;
    key = { remoteJid: recipient, id, fromMe: true };
  } else if (sender.addressing === "lid") {
    Object.assign(attrs, { from: sender.lidJid, sender_pn: sender.jid, addressing_mode: "lid" });
    key = { remoteJid: sender.lidJid, id, fromMe: false };
  } else {
    Object.assign(attrs, { from: sender.jid, sender_lid: sender.lidJid });
    key = { remoteJid: sender.jid, id, fromMe: false };
  }
  const plaintext = proto.Message.encode(input.message).finish();
  return { stanza: { tag: "message", attrs, content: [{ tag: "plaintext", attrs: {}, content: plaintext }] }, key };
}
