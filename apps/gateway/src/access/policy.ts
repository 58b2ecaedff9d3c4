import { isChorusError } from "@chorus/core";
import { type ChannelSettings, groupConfigFor } from "../config/index.js";
import { type AccessBot, type AccessSender, isOwner, isSelf, matchesAllowList } from "./allowlist.js";
import type { PairingStore } from "./pairing-store.js";

/** What the gateway does with one inbound message: handle it (knowing whether an owner wrote it), or drop it. */
export type AccessDecision =
  | { allowed: true; owner: boolean }
  | { allowed: false; reason: string; pairing?: { code: string; firstTime: boolean } };

/** One inbound message as the access rules see it. */
export interface AccessInput {
  channel: string;
  accountId: string;
  conversation: { id: string; kind: "direct" | "group" };
  sender: AccessSender;
  settings: ChannelSettings;
  bot?: AccessBot;
  pairing: Pick<PairingStore, "isApproved" | "request">;
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
