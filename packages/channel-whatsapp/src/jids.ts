import { ChorusError, type RefScope } from "@chorus/core";
import {
  areJidsSameUser,
  isJidBroadcast,
  isJidGroup,
  isJidNewsletter,
  isLidUser,
  isPnUser,
  jidDecode,
  jidNormalizedUser,
} from "@whiskeysockets/baileys";

/**
 * Who the linked account is: its phone-number JID, its LID (once WhatsApp told it), its name. It
 * is the instance's `RefScope` too, with the phone-number JID as the bot's id.
 */
export interface BotIdentity extends RefScope {
  /** `15551234567@s.whatsapp.net`, without device; also `botId`. */
  readonly pn: string;
  /** `123456789012345@lid`, without device; WhatsApp announces it on login. */
  readonly lid?: string;
  /** The account's push name, when known. */
  readonly name?: string;
  /** `+15551234567`. */
  readonly e164: string;
}

/** Phone numbers have at most 15 digits (E.164); short codes are not WhatsApp accounts. */
const PHONE_DIGITS = /^\d{5,15}$/;
/** A phone number as people write it: digits with an optional `+`, spaces, dashes, dots, brackets. */
const PHONE_INPUT = /^\+?[\d\s().-]+$/;

/** The identity of the account a credential file belongs to; undefined when `me` is no phone-number JID. */
export function botIdentityOf(
  me: { id?: string; lid?: string; name?: string } | undefined,
  channel: string,
  accountId: string,
): BotIdentity | undefined {
  const pn = me?.id ? jidNormalizedUser(me.id) : "";
  const e164 = e164OfJid(pn);
  if (e164 === undefined) return undefined;
  const lid = me?.lid ? jidNormalizedUser(me.lid) : "";
  const name = me?.name?.trim();
  return {
    channel,
    accountId,
    botId: pn,
    pn,
    e164,
    ...(lid !== "" ? { lid } : {}),
    // `~` is the placeholder Baileys stores while a pairing code is pending.
    ...(name && name !== "~" ? { name } : {}),
  };
}

/** `+<digits>` for a phone-number JID (`15551234567:3@s.whatsapp.net`), undefined for LIDs, groups, … */
export function e164OfJid(jid: string | undefined): string | undefined {
  if (!jid || !(isPnUser(jid) || jid.endsWith("@c.us") || jid.endsWith("@hosted"))) return undefined;
  const user = jidDecode(jid)?.user;
  return user !== undefined && PHONE_DIGITS.test(user) ? `+${user}` : undefined;
}

/** Whether `jid` is the linked account itself, by phone number or by LID. */
export function isBotJid(jid: string | undefined | null, who: Pick<BotIdentity, "pn" | "lid">): boolean {
  if (!jid) return false;
  return areJidsSameUser(jid, who.pn) || (who.lid !== undefined && areJidsSameUser(jid, who.lid));
}

/** Why messages of a chat are never input (status updates, broadcast lists, channels), or undefined. */
export function ignoredChat(jid: string): string | undefined {
  if (jid === "status@broadcast") return "status update";
  if (isJidBroadcast(jid)) return "broadcast list";
  if (isJidNewsletter(jid)) return "channel (newsletter)";
  return undefined;
}

/** The digits of a phone number as people write it (`+1 555-123 4567`), or undefined. */
export function phoneDigits(value: string): string | undefined {
  const text = value.trim();
  if (!PHONE_INPUT.test(text)) return undefined;
  const digits = text.replace(/\D/g, "");
  return PHONE_DIGITS.test(digits) ? digits : undefined;
}

/**
 * The chat JID to send to: a JID of a person (`…@s.whatsapp.net`, `…@lid`) or group (`…@g.us`),
 * or a phone number with country code (`+15551234567`), which addresses that person's chat.
 */
export function chatJidOf(target: string): string {
  const digits = phoneDigits(target);
  if (digits !== undefined) return `${digits}@s.whatsapp.net`;
  const jid = target.trim();
  if (jidDecode(jid)?.user && (isJidGroup(jid) || isPnUser(jid) || isLidUser(jid))) return jidNormalizedUser(jid);
  throw new ChorusError("E_INVALID_INPUT", `"${target}" is not a WhatsApp chat`, {
    hint: "Use a group JID (…@g.us), a person's JID (…@s.whatsapp.net or …@lid), or a phone number with country code (+15551234567).",
  });
}

/** The JID to mention: a person's JID as given, or a phone number (`+15551234567`, digits) as its JID. */
export function userJidOf(mention: string): string {
  const digits = phoneDigits(mention);
  if (digits !== undefined) return `${digits}@s.whatsapp.net`;
  const jid = mention.trim();
  if (jidDecode(jid)?.user && (isPnUser(jid) || isLidUser(jid))) return jidNormalizedUser(jid);
  throw new ChorusError("E_INVALID_INPUT", `"${mention}" is not a WhatsApp user to mention`, {
    hint: "Mention a person by JID (…@s.whatsapp.net or …@lid) or by phone number with country code.",
  });
}

/** The user part of a JID (`15551234567` of `15551234567:2@s.whatsapp.net`). */
export function userOf(jid: string): string | undefined {
  return jidDecode(jid)?.user;
}
