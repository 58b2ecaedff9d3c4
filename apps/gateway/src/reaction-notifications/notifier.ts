import type { InboundReactionEvent, MessageRef } from "@chorus/core";
import type { Logger } from "pino";
import { isNamedOwner } from "../access/index.js";
import type { ChannelEntry } from "../channels/index.js";
import type { GatewayConfig, ResolvedAgent } from "../config/index.js";
import { sessionKeyFor } from "../sessions/index.js";
import type { MessageIndex } from "../state/index.js";
import { reactionEventText, shouldNotify } from "./notify.js";

export interface ReactionNotifierOptions {
  config: Pick<GatewayConfig, "session">;
  agentFor(entry: ChannelEntry): ResolvedAgent;
  index: Pick<MessageIndex, "get" | "put">;
  /** Notes for a session's next turn. */
  systemEvents: { add(sessionKey: string, text: string): Promise<void> };
  logger: Logger;
}

/**
 * Inbound reaction notifications (DESIGN §7): a reaction someone made becomes a system event of
 * its conversation's session when `reactionNotifications` accepts it (see `shouldNotify`); it
 * never starts a turn. Whether the target is the bot's message comes from the index too (the
 * gateway recorded every message the bot sent, also before a restart), and the stored ref is
 * merged with the event's, never replaced by it.
 */
export class ReactionNotifier {
  constructor(private readonly options: ReactionNotifierOptions) {}

  async handle(entry: ChannelEntry, event: InboundReactionEvent): Promise<void> {
    const { index } = this.options;
    const known = await index.get({
      channel: entry.plugin.id,
      accountId: entry.accountId,
      conversationId: event.target.conversationId,
      messageId: event.target.messageId,
    });
    const target = mergeRefs(known, event.target);
    index.put(target);
    const bot = entry.supervisor.instance?.identity?.();
    const accepted = shouldNotify({ ...event, target }, entry.settings, bot?.id);
    this.options.logger.debug(
      { channel: entry.plugin.id, from: event.conversation.id, actor: event.actor.id, emoji: event.emoji, accepted },
      "inbound reaction",
    );
    if (!accepted) return;
    const agent = this.options.agentFor(entry);
    const sessionKey = sessionKeyFor({
      agentId: agent.id,
      channel: entry.plugin.id,
      conversation: event.conversation,
      senderId: event.actor.id,
      dmScope: this.options.config.session.dmScope,
      owner: isNamedOwner(event.actor, entry.settings, bot),
    });
    await this.options.systemEvents.add(sessionKey, reactionEventText(entry.plugin.label, event));
  }
}

/** What the gateway knows of a message, completed (never overwritten) by what a later event says of it. */
export function mergeRefs(known: MessageRef | undefined, incoming: MessageRef): MessageRef {
  if (!known) return incoming;
  const data = known.data || incoming.data ? { ...known.data, ...incoming.data } : undefined;
  const fromBot = known.fromBot === true || incoming.fromBot === true ? true : (incoming.fromBot ?? known.fromBot);
  return {
    ...known,
    ...incoming,
    ...(incoming.threadId === undefined && known.threadId !== undefined ? { threadId: known.threadId } : {}),
    ...(fromBot === undefined ? {} : { fromBot }),
    ...(data === undefined ? {} : { data }),
  };
}
