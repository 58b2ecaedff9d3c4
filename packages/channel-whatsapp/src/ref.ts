import { ChorusError, type MessageRef, mintRef, type RefScope } from "@chorus/core";
import { isJidGroup, type WAMessageKey } from "@whiskeysockets/baileys";
import type { BotIdentity } from "./jids.js";

/** What addresses one WhatsApp message: the chat, its id, and who wrote it. */
export interface WhatsAppMessageAddress {
  /** The chat JID (group `…@g.us`, or the person's JID in a direct chat). */
  readonly remoteJid: string;
  readonly id: string;
  /** Written by the linked account (through Chorus, or by its owner on the phone). */
  readonly fromMe: boolean;
  /** The author in a group, as WhatsApp addressed them (phone-number JID or LID). */
  readonly participant?: string;
}

/**
 * The `MessageRef` of a WhatsApp message (DESIGN §2.3): the id the agent sees, the chat as the
 * conversation, and in `data` the key fields WhatsApp needs to address the message again.
 * `fromBot` is given, not derived: the owner typing on the phone is `fromMe` but not the bot.
 */
export function whatsappMessageRef(scope: RefScope, address: WhatsAppMessageAddress, fromBot: boolean): MessageRef {
  return mintRef(scope, {
    conversationId: address.remoteJid,
    messageId: address.id,
    fromBot,
    data: {
      remoteJid: address.remoteJid,
      fromMe: address.fromMe,
      ...(address.participant ? { participant: address.participant } : {}),
    },
  });
}

/** The address a ref carries (falling back to its conversation and `fromBot` where `data` is missing). */
export function addressOfRef(ref: MessageRef): WhatsAppMessageAddress {
  const data = ref.data ?? {};
  const remoteJid = typeof data.remoteJid === "string" && data.remoteJid !== "" ? data.remoteJid : ref.conversationId;
  const fromMe = typeof data.fromMe === "boolean" ? data.fromMe : ref.fromBot === true;
  const participant = typeof data.participant === "string" && data.participant !== "" ? data.participant : undefined;
  return { remoteJid, id: ref.messageId, fromMe, ...(participant ? { participant } : {}) };
}

/**
 * The full key WhatsApp needs to react to (or quote) a message. In a group, someone else's
 * message must name its author as `participant`: without it WhatsApp accepts the reaction and
 * shows nothing, so such a ref is refused before any request. The bot's own group messages are
 * keyed with the bot's JID.
 */
export function messageKeyOf(ref: MessageRef, who: Pick<BotIdentity, "pn">): WAMessageKey {
  const address = addressOfRef(ref);
  const key: WAMessageKey = { remoteJid: address.remoteJid, id: address.id, fromMe: address.fromMe };
  if (!isJidGroup(address.remoteJid)) return key;
  if (address.participant) return { ...key, participant: address.participant };
  if (address.fromMe) return { ...key, participant: who.pn };
  throw new ChorusError(
    "E_MESSAGE_NOT_FOUND",
    `message ${ref.messageId} in WhatsApp group ${address.remoteJid} has no known author`,
    {
      hint: "WhatsApp addresses a group message by its author; react to or quote a message the gateway received or sent (its messageId from the conversation).",
    },
  );
}
