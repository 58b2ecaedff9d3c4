import type { ChannelSettings } from "../config/index.js";
import { phoneDigits } from "./phone.js";

/** Someone an allowlist may admit: the sender of a message, or the actor of a reaction. */
export interface AccessSender {
  id: string;
  e164?: string | undefined;
  name?: string | undefined;
}

/** The bot's own account on the channel (`ChannelInstance.identity()`). */
export interface AccessBot {
  id: string;
  e164?: string | undefined;
}

/** The phone numbers a sender is known by: its E.164, and its id when written as a number (`+…`). */
function phonesOf(sender: AccessSender): string[] {
  return [sender.e164, sender.id.startsWith("+") ? sender.id : undefined]
    .map((value) => (value === undefined ? undefined : phoneDigits(value)))
    .filter((digits) => digits !== undefined);
}

/**
 * Whether `sender` is on `list` (`allowFrom`, `groupAllowFrom`, `reactionAllowlist`): `"*"`, the
 * sender's platform id, or the same phone number (see `phoneDigits`). A bare numeric id is an id,
 * not a number (Telegram user ids are numbers).
 */
export function matchesAllowList(sender: AccessSender, list: readonly string[]): boolean {
  const phones = phonesOf(sender);
  for (const raw of list) {
    const entry = raw.trim();
    if (entry === "*" || entry === sender.id) return true;
    const digits = phoneDigits(entry);
    if (digits !== undefined && phones.includes(digits)) return true;
  }
  return false;
}

/** Whether `sender` is the bot's own account (same id, or the same phone number). */
export function isSelf(sender: AccessSender, bot: AccessBot | undefined): boolean {
  if (!bot) return false;
  if (sender.id === bot.id) return true;
  return bot.e164 !== undefined && matchesAllowList(sender, [bot.e164]);
}

/** Owners may use owner commands: `allowFrom` entries (`"*"` = everyone), or the bot's own number when it is unset. */
export function isOwner(sender: AccessSender, settings: ChannelSettings, bot?: AccessBot): boolean {
  const allowFrom = settings.allowFrom;
  if (allowFrom !== undefined && allowFrom.length > 0) return matchesAllowList(sender, allowFrom);
  return isSelf(sender, bot);
}

/**
 * The sender is an owner by name: an `allowFrom` entry other than `"*"`, or the bot's own account.
 * A wildcard lets everyone in, but does not make everyone one person: `dmScope: "owner-main"` reads this.
 */
export function isNamedOwner(sender: AccessSender, settings: ChannelSettings, bot?: AccessBot): boolean {
  const named = (settings.allowFrom ?? []).filter((entry) => entry.trim() !== "*");
  return (named.length > 0 && matchesAllowList(sender, named)) || isSelf(sender, bot);
}
