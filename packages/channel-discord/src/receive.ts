import { createReceiver, type Receiver } from "@chorus/channel-kit";
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
import { completeDispatch, type DiscordDelivery, normalizeDelivery } from "./inbound.js";
import { DispatchOrigins, reactionKey } from "./origins.js";

/** What the receiver of one instance needs from it. */
export interface DiscordReceiveDeps {
  /** The instance's ref scope once the bot's account is known (READY). */
  readonly scope: () => RefScope | undefined;
  /** False for guilds the config does not serve. */
  readonly guildAllowed: (guildId: string | null) => boolean;
  /** `ctx.emit`: resolves once the gateway committed the event. */
  readonly emit: (event: InboundEvent) => Promise<void>;
  readonly logger: Logger;
  /** `ctx.signal`: events still kept when it aborts are let go (logged). */
  readonly signal: AbortSignal;
}

/**
 * The instance's receiver, on the kit's shared one. Discord's gateway has no acknowledgement of
 * a dispatch: the client tells Discord the last sequence number it *received* (in heartbeats and
 * RESUME, which @discordjs/ws advances before a handler runs), and Discord never delivers a
 * dispatch again because a handler failed. So an event whose commit failed is kept here and
 * emitted again until it is committed (`redelivery: "keep"`). There is no deduplication here
 * either: the gateway drops a repeated `eventId` (a message's id; a reaction's dispatch origin),
 * which is all a replay after RESUME needs.
 */
export function createDiscordReceiver(deps: DiscordReceiveDeps): Receiver<DiscordDelivery> {
  return createReceiver<DiscordDelivery>({
    channel: "discord",
    logger: deps.logger,
    emit: deps.emit,
    normalize: (delivery) => normalizeDelivery(delivery, deps.scope(), deps.guildAllowed),
    redelivery: "keep",
    signal: deps.signal,
  });
}

/** The type a dispatch the channel cannot read gets, so discord.js passes it by (no handler has that name). */
const UNREAD = "CHORUS_UNREADABLE_DISPATCH";

type AnyReaction = MessageReaction | PartialMessageReaction;

/**
 * Hands what one discord.js client delivers to the receiver: messages, reactions, and dispatches
 * the channel cannot read. `current()` is false once this client was replaced or destroyed: what
 * it still emits is ignored.
 */
export function attachReceiver(
  client: Client,
  receiver: Receiver<DiscordDelivery>,
  current: () => boolean,
  logger: Logger,
): void {
  const origins = new DispatchOrigins();
  /** Receives what `build` makes; a throw while making it is a delivery the channel cannot read. */
  const deliver = (what: string, build: () => DiscordDelivery) => {
    if (!current()) return;
    let delivery: DiscordDelivery;
    try {
      delivery = build();
    } catch (error) {
      delivery = { kind: "unreadable", what, problem: error instanceof Error ? error.message : String(error) };
    }
    receiver
      .receive(delivery)
      .catch((error: unknown) => logger.error({ err: error }, `discord: receiving an inbound ${what} failed`));
  };
  // discord.js hands `raw` listeners each gateway packet right before it handles it itself. A
  // dispatch the channel cannot read is renamed, so discord.js skips it too (some malformed
  // payloads, `d: null`, would otherwise throw inside its socket handler, where nothing catches
  // them), and received as unreadable: the receiver's warning names the problem. One that reads
  // is completed where discord.js would drop it for a field Discord may leave out.
  client.on(Events.Raw, (packet: { t?: unknown }) => {
    const type = String(packet?.t);
    try {
      const seen = origins.see(packet);
      if (seen === undefined) return;
      if (seen.problem === undefined) return completeDispatch(seen.type, (packet as { d?: unknown }).d);
      packet.t = UNREAD;
      const what = `a ${seen.type} dispatch${seen.seq === undefined ? "" : ` (seq ${seen.seq})`}`;
      deliver(what, () => ({ kind: "unreadable", what, problem: seen.problem as string }));
    } catch (error) {
      deliver(`a ${type} dispatch`, () => {
        throw error;
      });
    }
  });
  client.on(Events.MessageCreate, (message: Message) => deliver("message", () => ({ kind: "message", message })));
  const emojiOf = (r: AnyReaction) => reactionEmojiKey(r.emoji);
  const single =
    (type: "MESSAGE_REACTION_ADD" | "MESSAGE_REACTION_REMOVE", action: "added" | "removed") =>
    (reaction: AnyReaction, user: User | PartialUser) =>
      deliver("reaction", () => {
        const origin = origins.take(reactionKey(type, reaction.message.id, user.id, emojiOf(reaction)));
        return { kind: "reaction", reaction, user, action, origin };
      });
  client.on(Events.MessageReactionAdd, single("MESSAGE_REACTION_ADD", "added"));
  client.on(Events.MessageReactionRemove, single("MESSAGE_REACTION_REMOVE", "removed"));
  // A moderator cleared reactions: one delivery, an event per person discord.js saw reacting.
  client.on(Events.MessageReactionRemoveAll, (message: Message | PartialMessage, reactions) =>
    deliver("reaction", () => ({
      kind: "reactions cleared",
      reactions: [...reactions.values()],
      origin: origins.take(reactionKey("MESSAGE_REACTION_REMOVE_ALL", message.id)),
    })),
  );
  client.on(Events.MessageReactionRemoveEmoji, (reaction) =>
    deliver("reaction", () => ({
      kind: "reactions cleared",
      reactions: [reaction],
      origin: origins.take(
        reactionKey("MESSAGE_REACTION_REMOVE_EMOJI", reaction.message.id, undefined, emojiOf(reaction)),
      ),
    })),
  );
}
