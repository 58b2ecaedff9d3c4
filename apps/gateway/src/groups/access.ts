import { isChorusError } from "@chorus/core";
import type { ChannelSettings } from "../config/schema.js";
import type { PairingStore } from "./pairing.js";

/** What the gateway does with one inbound message: handle it (knowing whether an owner wrote it), or drop it. */
export type AccessDecision =
  | { allowed: true; owner: boolean }
  | { allowed: false; reason: string; pairing?: { code: string; firstTime: boolean } };

/** The person who wrote a message. */
export interface AccessSender {
  id: string;
  e164?: string;
  name?: string;
}

/** The bot's own account on the channel (`ChannelInstance.identity()`). */
export interface AccessBot {
  id: string;
  e164?: string;
}

export interface AccessInput {
  channel: string;
  accountId: string;
  conversation: { id: string; kind: "direct" | "group" };
  sender: AccessSender;
  settings: ChannelSettings;
  bot?: AccessBot;
  pairing: PairingStore;
}

type GroupConfig = NonNullable<ChannelSettings["groups"]>[string];

const PHONE_SHAPE = /^\+?[\d\s\-().]+$/;

/** The digits of a phone number written with `+`, spaces, dashes, dots or brackets; `undefined` when it is not one. */
export function e164Digits(value: string): string | undefined {
  const text = value.trim();
  if (!PHONE_SHAPE.test(text)) return undefined;
  const digits = text.replace(/\D/g, "");
  return digits.length >= 4 && digits.length <= 15 ? digits : undefined;
}

/**
 * Whether `sender` is on `list`: `"*"`, the sender's platform id, or the same phone number
 * (E.164 digits equal, ignoring `+`, spaces and dashes).
 */
export function matchesAllowList(sender: AccessSender, list: readonly string[]): boolean {
  const senderPhones = [sender.e164, sender.id.startsWith("+") ? sender.id : undefined]
    .map((value) => (value === undefined ? undefined : e164Digits(value)))
    .filter((digits) => digits !== undefined);
  for (const raw of list) {
    const entry = raw.trim();
    if (entry === "*" || entry === sender.id) return true;
    const digits = e164Digits(entry);
    if (digits !== undefined && senderPhones.includes(digits)) return true;
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

/** The `channels.<ch>.groups` entry that applies to a group (its own id, else `"*"`), with the key it came from. */
export function groupConfigFor(
  settings: ChannelSettings,
  groupId: string,
): { key: string; config: GroupConfig } | undefined {
  const groups = settings.groups;
  if (groups === undefined) return undefined;
  // Own keys only: a group called "constructor" or "__proto__" is not in every list.
  const own = Object.hasOwn(groups, groupId) ? groups[groupId] : undefined;
  if (own !== undefined) return { key: groupId, config: own };
  const any = Object.hasOwn(groups, "*") ? groups["*"] : undefined;
  return any === undefined ? undefined : { key: "*", config: any };
}

/**
 * Applies the channel's access rules to one inbound message: `dmPolicy` + `allowFrom` + pairing for
 * direct messages, `groupPolicy` + `groups` + `groupAllowFrom` (falling back to `allowFrom`) for
 * groups. The bot's own account always passes the sender checks. Every block names its rule.
 */
export async function checkAccess(input: AccessInput): Promise<AccessDecision> {
  const { sender, settings, bot } = input;
  const allow = (): AccessDecision => ({ allowed: true, owner: isOwner(sender, settings, bot) });
  const block = (reason: string): AccessDecision => ({ allowed: false, reason });
  const where = `channels.${input.channel}`;
  const who = `sender ${sender.id}${sender.name ? ` (${sender.name})` : ""}`;

  if (input.conversation.kind === "direct") {
    const policy = settings.dmPolicy ?? "pairing";
    if (policy === "disabled") return block(`direct messages are off: ${where}.dmPolicy is "disabled"`);
    if (policy === "open" || isSelf(sender, bot)) return allow();
    if (matchesAllowList(sender, settings.allowFrom ?? [])) return allow();
    if (policy === "allowlist") {
      return block(
        settings.allowFrom === undefined
          ? `${where}.allowFrom is not set, so dmPolicy "allowlist" lets no one write direct messages`
          : `${who} is not in ${where}.allowFrom (dmPolicy "allowlist")`,
      );
    }
    if (await input.pairing.isApproved(input.channel, input.accountId, sender.id)) return allow();
    try {
      const pairing = await input.pairing.request(input.channel, input.accountId, sender);
      return {
        allowed: false,
        reason: `${who} is not paired (dmPolicy "pairing"); the owner approves with \`chorus pairing approve ${pairing.code}\``,
        pairing,
      };
    } catch (error) {
      if (isChorusError(error) && error.code === "E_RATE_LIMITED") {
        return block(`${who} is not paired (dmPolicy "pairing") and no code was issued: ${error.message}`);
      }
      throw error;
    }
  }

  const group = input.conversation.id;
  const policy = settings.groupPolicy ?? "allowlist";
  if (policy === "disabled") return block(`group messages are off: ${where}.groupPolicy is "disabled"`);
  if (settings.groups !== undefined) {
    const entry = groupConfigFor(settings, group);
    if (entry === undefined) {
      return block(`group ${group} is not in ${where}.groups (add "${group}" or "*" to allow it)`);
    }
    if (entry.config.enabled === false) {
      return block(`group ${group} is turned off by ${where}.groups["${entry.key}"].enabled = false`);
    }
  }
  if (policy === "open" || isSelf(sender, bot)) return allow();
  const { groupAllowFrom, allowFrom } = settings;
  if (groupAllowFrom !== undefined) {
    if (matchesAllowList(sender, groupAllowFrom)) return allow();
    return block(`${who} is not in ${where}.groupAllowFrom (groupPolicy "allowlist")`);
  }
  if (allowFrom !== undefined) {
    if (matchesAllowList(sender, allowFrom)) return allow();
    return block(
      `${who} is not in ${where}.allowFrom (groupPolicy "allowlist", used because groupAllowFrom is not set)`,
    );
  }
  return block(
    `${where}.groupPolicy is "allowlist" but neither groupAllowFrom nor allowFrom is set, so no one may write in groups (set one, or groupPolicy "open")`,
  );
}
