import type { InboundEvent, Logger } from "@chorus/core";
import {
  type Client,
  Events,
  type Message,
  type MessageReaction,
  type PartialMessage,
  type PartialMessageReaction,
  type PartialUser,
  type User,
} from "discord.js";
import { normaliseMessage, normaliseReaction } from "./inbound.js";
import type { Identity } from "./ref.js";

/** What the gateway listeners need from the instance. */
export interface ListenerDeps {
  readonly who: () => Identity | undefined;
  readonly emit: (event: InboundEvent) => void;
  /** False for guilds the config does not serve. */
  readonly guildAllowed: (guildId: string | null) => boolean;
  readonly logger: Logger;
}

const SEEN_LIMIT = 2000;

/** Wires discord.js events to normalised inbound events: messages (deduplicated) and reactions. */
export function attachListeners(client: Client, deps: ListenerDeps): void {
  const seen = new Set<string>();
  let seq = 0;
  const firstTime = (id: string): boolean => {
    if (seen.has(id)) return false;
    seen.add(id);
    if (seen.size > SEEN_LIMIT) seen.delete(seen.values().next().value as string);
    return true;
  };
  const guarded = (what: string, run: () => void) => {
    try {
      run();
    } catch (error) {
      deps.logger.warn({ err: error }, `discord: dropped an inbound ${what} that could not be normalised`);
    }
  };
  client.on(Events.MessageCreate, (message: Message) =>
    guarded("message", () => {
      const who = deps.who();
      if (!who || !deps.guildAllowed(message.guildId) || !firstTime(message.id)) return;
      const event = normaliseMessage(message, who);
      if (event) deps.emit(event);
    }),
  );
  const reaction =
    (action: "added" | "removed") => (r: MessageReaction | PartialMessageReaction, user: User | PartialUser) =>
      guarded("reaction", () => {
        const who = deps.who();
        if (!who || !deps.guildAllowed(r.message.guildId)) return;
        const event = normaliseReaction(r, user, action, who, ++seq);
        if (event) deps.emit(event);
      });
  client.on(Events.MessageReactionAdd, reaction("added"));
  client.on(Events.MessageReactionRemove, reaction("removed"));
  // A moderator cleared reactions: everyone discord.js saw reacting counts as removed.
  const removedAll = (reactions: Iterable<MessageReaction>) => {
    for (const r of reactions) for (const user of r.users.cache.values()) reaction("removed")(r, user);
  };
  client.on(Events.MessageReactionRemoveAll, (_message: Message | PartialMessage, reactions) =>
    removedAll(reactions.values()),
  );
  client.on(Events.MessageReactionRemoveEmoji, (r) => removedAll([r as MessageReaction]));
}
