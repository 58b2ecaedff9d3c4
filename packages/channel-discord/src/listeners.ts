import type { InboundEvent, Logger, RefScope } from "@chorus/core";
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
import { reactionEmojiKey } from "./emoji.js";
import { normalizeMessage, normalizeReaction, type ReactionOrigin } from "./inbound.js";
import { DispatchOrigins, reactionKey } from "./origins.js";

/** What the gateway listeners need from the instance. */
export interface ListenerDeps {
  /** The instance's ref scope once the bot's account is known. */
  readonly scope: () => RefScope | undefined;
  readonly emit: (event: InboundEvent) => void;
  /** False for guilds the config does not serve. */
  readonly guildAllowed: (guildId: string | null) => boolean;
  readonly logger: Logger;
  /** False once this client was replaced or destroyed: what it still emits is ignored. */
  readonly current: () => boolean;
}

/** The type a dispatch the channel cannot read gets, so discord.js passes it by (no handler has that name). */
const UNREAD = "CHORUS_UNREADABLE_DISPATCH";

/**
 * Wires discord.js events to normalized inbound events: messages and reactions. There is no
 * deduplication here: the gateway drops a repeated `eventId` (a message's id; a reaction's
 * dispatch origin), which is all a replay after RESUME needs.
 */
export function attachListeners(client: Client, deps: ListenerDeps): void {
  const origins = new DispatchOrigins();
  const guarded = (what: string, run: () => void) => {
    if (!deps.current()) return;
    try {
      run();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      deps.logger.warn({ err: error }, `discord: dropped an inbound ${what} that could not be normalized: ${reason}`);
    }
  };
  // discord.js hands `raw` listeners each gateway packet right before it handles it itself. A
  // dispatch the channel cannot read is named in a warning and renamed, so discord.js skips it too:
  // some malformed payloads (`d: null`) would otherwise throw inside its socket handler, where
  // nothing catches them.
  client.on(Events.Raw, (packet: { t?: unknown }) => {
    try {
      const seen = origins.see(packet);
      if (seen?.problem === undefined) return;
      packet.t = UNREAD;
      if (!deps.current()) return;
      deps.logger.warn(
        { dispatch: seen.type, seq: seen.seq, problem: seen.problem },
        `discord: ignored a ${seen.type} dispatch it cannot read: ${seen.problem}`,
      );
    } catch (error) {
      deps.logger.warn({ err: error }, "discord: could not read a gateway dispatch");
    }
  });
  client.on(Events.MessageCreate, (message: Message) =>
    guarded("message", () => {
      const scope = deps.scope();
      if (!scope || !deps.guildAllowed(message.guildId)) return;
      const event = normalizeMessage(message, scope);
      if (event) deps.emit(event);
    }),
  );
  const emitReaction = (
    r: MessageReaction | PartialMessageReaction,
    user: User | PartialUser,
    action: "added" | "removed",
    origin: ReactionOrigin,
  ) => {
    const scope = deps.scope();
    if (!scope || !deps.guildAllowed(r.message.guildId)) return;
    const event = normalizeReaction(r, user, action, scope, origin);
    if (event) deps.emit(event);
  };
  const emojiOf = (r: MessageReaction | PartialMessageReaction) => reactionEmojiKey(r.emoji);
  const single =
    (type: "MESSAGE_REACTION_ADD" | "MESSAGE_REACTION_REMOVE", action: "added" | "removed") =>
    (r: MessageReaction | PartialMessageReaction, user: User | PartialUser) =>
      guarded("reaction", () => {
        const origin = origins.take(reactionKey(type, r.message.id, user.id, emojiOf(r)));
        emitReaction(r, user, action, origin);
      });
  client.on(Events.MessageReactionAdd, single("MESSAGE_REACTION_ADD", "added"));
  client.on(Events.MessageReactionRemove, single("MESSAGE_REACTION_REMOVE", "removed"));
  // A moderator cleared reactions: everyone discord.js saw reacting counts as removed, each as
  // its own event under the one dispatch's origin.
  const removedAll = (origin: ReactionOrigin, reactions: Iterable<MessageReaction | PartialMessageReaction>) => {
    for (const r of reactions) {
      for (const user of r.users.cache.values()) {
        emitReaction(r, user, "removed", { ...origin, eventId: `${origin.eventId}:${user.id}:${emojiOf(r)}` });
      }
    }
  };
  client.on(Events.MessageReactionRemoveAll, (message: Message | PartialMessage, reactions) =>
    guarded("reaction", () => {
      removedAll(origins.take(reactionKey("MESSAGE_REACTION_REMOVE_ALL", message.id)), reactions.values());
    }),
  );
  client.on(Events.MessageReactionRemoveEmoji, (r) =>
    guarded("reaction", () => {
      const origin = origins.take(reactionKey("MESSAGE_REACTION_REMOVE_EMOJI", r.message.id, undefined, emojiOf(r)));
      removedAll(origin, [r]);
    }),
  );
}
