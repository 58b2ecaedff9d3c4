import type { InboundReactionEvent, Participant } from "@chorus/core";
import type { ChannelSettings } from "../config/schema.js";
import { oneLine } from "../text/untrusted.js";

/** `channels.<id>.reactionNotifications`: which reactions people make reach the agent. */
export type ReactionNotifications = NonNullable<ChannelSettings["reactionNotifications"]>;

/**
 * Whether a reaction someone made becomes a system event for the agent (DESIGN §7):
 * `off` never, `own` (default) on the bot's messages, `all` always, `allowlist` when the actor's
 * id or E.164 number is in `reactionAllowlist` (`"*"` allows everyone). The bot's own never do.
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
      return actorAllowed(event.actor, settings.reactionAllowlist ?? []);
  }
}

/** The system event text for a reaction: `<Channel> reaction added: <emoji> by <name> on msg <id>`. */
export function reactionEventText(channelLabel: string, event: InboundReactionEvent): string {
  const name = oneLine(event.actor.name ?? "") || event.actor.e164 || event.actor.id;
  return `${oneLine(channelLabel)} reaction ${event.action}: ${oneLine(event.emoji)} by ${oneLine(name)} on msg ${oneLine(event.target.messageId)}`;
}

function actorAllowed(actor: Participant, list: readonly string[]): boolean {
  const phone = actor.e164 === undefined ? undefined : digits(actor.e164);
  return list.some((entry) => {
    const wanted = entry.trim();
    if (wanted === "*" || wanted === actor.id) return true;
    return phone !== undefined && phone !== "" && looksLikePhone(wanted) && digits(wanted) === phone;
  });
}

const digits = (text: string) => text.replace(/[^\d]/g, "");
const looksLikePhone = (text: string) => /^\+?[\d\s-]+$/.test(text);
