import type { InboundReactionEvent } from "@chorus/core";
import { matchesAllowList } from "../access/index.js";
import type { ChannelSettings } from "../config/index.js";
import { oneLine } from "../support/index.js";

/** `channels.<id>.reactionNotifications`: which reactions people make reach the agent. */
export type ReactionNotifications = NonNullable<ChannelSettings["reactionNotifications"]>;

/**
 * Whether a reaction someone made becomes a system event for the agent (DESIGN §7):
 * `off` never, `own` (default) on the bot's messages, `all` always, `allowlist` when the actor is
 * on `reactionAllowlist` by id or phone number, by the same rules as `allowFrom` (`"*"` allows
 * everyone). The bot's own never do.
 */
export function shouldNotify(
  event: InboundReactionEvent,
  settings: Pick<ChannelSettings, "reactionNotifications" | "reactionAllowlist">,
  botId: string | undefined,
): boolean {
  if (botId !== undefined && event.actor.id === botId) return false;
  const mode: ReactionNotifications = settings.reactionNotifications ?? "own";
  switch (mode) {
    case "off":
      return false;
    case "own":
      return event.target.fromBot === true;
    case "all":
      return true;
    case "allowlist":
      return matchesAllowList(event.actor, settings.reactionAllowlist ?? []);
  }
}

/** The system event text for a reaction: `<Channel> reaction added: <emoji> by <name> on msg <id>`. */
export function reactionEventText(channelLabel: string, event: InboundReactionEvent): string {
  const name = oneLine(event.actor.name ?? "") || event.actor.e164 || event.actor.id;
  return `${oneLine(channelLabel)} reaction ${event.action}: ${oneLine(event.emoji)} by ${oneLine(name)} on msg ${oneLine(event.target.messageId)}`;
}
