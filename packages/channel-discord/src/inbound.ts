import {
  type Conversation,
  type InboundEvent,
  type InboundMessageEvent,
  type InboundReactionEvent,
  type Participant,
  type RefScope,
  z,
} from "@chorus/core";
import {
  ChannelType,
  type Message,
  type MessageReaction,
  MessageType,
  type PartialMessage,
  type PartialMessageReaction,
  type PartialUser,
  type User,
} from "discord.js";
import { attachmentsOf } from "./attachments.js";
import { reactionEmojiKey } from "./emoji.js";
import { discordMessageRef } from "./ref.js";

type AnyReaction = MessageReaction | PartialMessageReaction;

/** One thing the gateway delivered that the channel reads: what the receiver (`receive.ts`) receives. */
export type DiscordDelivery =
  | { readonly kind: "message"; readonly message: Message }
  | {
      readonly kind: "reaction";
      readonly reaction: AnyReaction;
      readonly user: User | PartialUser;
      readonly action: "added" | "removed";
      readonly origin: ReactionOrigin;
    }
  /** A moderator cleared the reactions of a message, all of them or those of one emoji. */
  | { readonly kind: "reactions cleared"; readonly reactions: readonly AnyReaction[]; readonly origin: ReactionOrigin }
  /** A dispatch the channel cannot read (`what`: `MESSAGE_CREATE dispatch 12`), and what is wrong with it. */
  | { readonly kind: "unreadable"; readonly what: string; readonly problem: string };

/**
 * A delivery as the events for the gateway: none before READY, for a guild the config does not
 * serve, for the bot's own messages and reactions. Throws, naming what is wrong, for a dispatch
 * the channel cannot read.
 */
export function normalizeDelivery(
  delivery: DiscordDelivery,
  scope: RefScope | undefined,
  guildAllowed: (guildId: string | null) => boolean,
): InboundEvent | InboundEvent[] | undefined {
  if (delivery.kind === "unreadable") throw new Error(`${delivery.what}: ${delivery.problem}`);
  if (!scope) return undefined;
  switch (delivery.kind) {
    case "message":
      return guildAllowed(delivery.message.guildId) ? normalizeMessage(delivery.message, scope) : undefined;
    case "reaction": {
      const { reaction, user, action, origin } = delivery;
      if (!guildAllowed(reaction.message.guildId)) return undefined;
      return normalizeReaction(reaction, user, action, scope, origin);
    }
    case "reactions cleared": {
      // Everyone discord.js saw reacting counts as removed, each as its own event under the one dispatch's origin.
      const events: InboundEvent[] = [];
      for (const r of delivery.reactions) {
        if (!guildAllowed(r.message.guildId)) continue;
        const emoji = reactionEmojiKey(r.emoji);
        for (const user of r.users.cache.values()) {
          const origin = { ...delivery.origin, eventId: `${delivery.origin.eventId}:${user.id}:${emoji}` };
          const event = normalizeReaction(r, user, "removed", scope, origin);
          if (event) events.push(event);
        }
      }
      return events;
    }
  }
}

/** Where a message or reaction happened, as a conversation: guild channel (group), thread, or DM. */
export function conversationOf(message: Message | PartialMessage): Conversation {
  const channel = message.channel;
  if (channel.isThread()) {
    const parent = channel.parent;
    return {
      id: channel.parentId ?? channel.id,
      kind: "group",
      threadId: channel.id,
      title: parent ? `#${parent.name} › ${channel.name}` : channel.name,
    };
  }
  if (channel.type === ChannelType.DM || message.guildId === null) return { id: channel.id, kind: "direct" };
  const name = "name" in channel ? channel.name : undefined;
  const guild = message.guild?.name;
  return { id: channel.id, kind: "group", ...(name ? { title: guild ? `#${name} (${guild})` : `#${name}` } : {}) };
}

/** A Discord message (with its attachments) as a normalized event, or undefined for the bot's own and for system messages. */
export function normalizeMessage(message: Message, scope: RefScope): InboundMessageEvent | undefined {
  if (message.author.id === scope.botId) return undefined;
  if (message.type !== MessageType.Default && message.type !== MessageType.Reply) return undefined;
  const mentions = message.mentions;
  const botRoles = message.guild?.members.me?.roles.cache;
  // `@everyone`/`@here` is not a mention of the bot; a user mention, its role or a reply ping is.
  const repliedToBot = mentions.repliedUser?.id === scope.botId;
  const byRole = botRoles ? mentions.roles.some((role) => botRoles.has(role.id) && role.id !== message.guildId) : false;
  const bot = mentions.users.has(scope.botId) || byRole || repliedToBot;
  const others = [...mentions.users.keys()].filter((id) => id !== scope.botId);
  const reference = message.reference?.messageId;
  const replied = reference ? message.channel.messages.cache.get(reference) : undefined;
  const replyFromBot = repliedToBot || replied?.author.id === scope.botId;
  const attachments = attachmentsOf(message);
  return {
    type: "message",
    eventId: `message:${message.id}`,
    conversation: conversationOf(message),
    sender: participant(message.author, message.member?.displayName),
    // Empty for a message of attachments only (a voice message never has text).
    text: message.cleanContent,
    ...(attachments.length > 0 ? { attachments } : {}),
    mentions: { bot, others },
    ...(reference
      ? {
          replyTo: {
            messageId: reference,
            fromBot: replyFromBot,
            ...(replied ? { text: replied.content, senderId: replied.author.id } : {}),
          },
        }
      : {}),
    ref: discordMessageRef(placeOf(message, message.author.id), scope),
    timestamp: message.createdTimestamp,
  };
}

/** Which gateway dispatch a reaction event came from (see `DispatchOrigins`). */
export interface ReactionOrigin {
  /** Unique per dispatch and the same when Discord replays it after a RESUME. */
  readonly eventId: string;
  /** `message_author_id` of MESSAGE_REACTION_ADD: the author of a message discord.js has not cached. */
  readonly messageAuthorId?: string;
}

/** A person's reaction as a normalized event, or undefined for the bot's own. */
export function normalizeReaction(
  reaction: MessageReaction | PartialMessageReaction,
  user: User | PartialUser,
  action: "added" | "removed",
  scope: RefScope,
  origin: ReactionOrigin,
): InboundReactionEvent | undefined {
  if (user.id === scope.botId) return undefined;
  const message = reaction.message;
  const emoji = reactionEmojiKey({ id: reaction.emoji.id, name: reaction.emoji.name });
  const member = message.guild?.members.cache.get(user.id);
  return {
    type: "reaction",
    eventId: origin.eventId,
    conversation: conversationOf(message),
    target: discordMessageRef(placeOf(message, message.author?.id ?? origin.messageAuthorId), scope),
    emoji,
    action,
    actor: participant(user, member?.displayName),
    timestamp: Date.now(),
  };
}

function participant(user: User | PartialUser, displayName?: string): Participant {
  const name = displayName ?? user.globalName ?? user.username ?? undefined;
  return { id: user.id, ...(name ? { name } : {}), isBot: user.bot === true };
}

function placeOf(message: Message | PartialMessage, authorId: string | undefined) {
  const channel = message.channel;
  return {
    id: message.id,
    ...(authorId ? { authorId } : {}),
    channelId: message.channelId,
    parentId: channel.isThread() ? channel.parentId : null,
  };
}

/**
 * The gateway dispatches the channel reads, as Discord documents them (developers/events/
 * gateway-events.mdx, resources/message.mdx): only the fields the channel and discord.js rely on
 * are checked, so a dispatch that fails here is one the channel really cannot read.
 */
const snowflake = z.string("expected a snowflake (a string of digits)").regex(/^\d{1,20}$/, "expected a snowflake");
const emojiSchema = z.object({
  id: snowflake.nullable(),
  // Null for a custom emoji Discord no longer has data for (deleted from its guild).
  name: z.string().nullable(),
  animated: z.boolean().optional(),
});
const place = { channel_id: snowflake, message_id: snowflake, guild_id: snowflake.optional() };

const SCHEMAS = {
  MESSAGE_CREATE: z.object({
    id: snowflake,
    channel_id: snowflake,
    guild_id: snowflake.optional(),
    // The name is a nicety (a member's nick or the global name may stand in); the id is who wrote.
    author: z.object({ id: snowflake, username: z.string().nullish() }),
    // Empty without the MESSAGE_CONTENT intent, but always there: the text.
    content: z.string(),
    // Tells a person's message from a system one (a join, a pin): without it the message could only be dropped.
    type: z.number().int(),
    mentions: z.array(z.object({ id: snowflake })).optional(),
    mention_roles: z.array(snowflake).optional(),
    message_reference: z.object({ message_id: snowflake.optional(), channel_id: snowflake.optional() }).optional(),
  }),
  MESSAGE_REACTION_ADD: z.object({
    ...place,
    user_id: snowflake,
    emoji: emojiSchema,
    message_author_id: snowflake.optional(),
  }),
  MESSAGE_REACTION_REMOVE: z.object({ ...place, user_id: snowflake, emoji: emojiSchema }),
  MESSAGE_REACTION_REMOVE_ALL: z.object(place),
  MESSAGE_REACTION_REMOVE_EMOJI: z.object({ ...place, emoji: emojiSchema }),
} as const;

/** A dispatch type the channel reads. */
export type ReadDispatch = keyof typeof SCHEMAS;

/** True for the dispatch types the channel reads (and checks). */
export function isReadDispatch(type: unknown): type is ReadDispatch {
  return typeof type === "string" && Object.hasOwn(SCHEMAS, type);
}

/**
 * Fills in, on a dispatch that reads, what discord.js needs and Discord may leave out. A
 * MESSAGE_CREATE without `guild_id` was sent outside any guild (gateway-events.mdx, "Message
 * Create"); without the optional `channel_type` too (Discord's own Example Message has neither),
 * discord.js cannot tell the DM of a channel it never saw and drops the message without a word.
 * Such a message is a DM: `channel_type` 1.
 */
export function completeDispatch(type: ReadDispatch, data: unknown): void {
  if (type !== "MESSAGE_CREATE" || data === null || typeof data !== "object") return;
  const message = data as { guild_id?: unknown; channel_type?: unknown };
  if (message.guild_id === undefined && message.channel_type === undefined) message.channel_type = ChannelType.DM;
}

/** What is wrong with a dispatch's data (`author.id: expected a snowflake; content: …`), or undefined when it reads. */
export function dispatchProblem(type: ReadDispatch, data: unknown): string | undefined {
  const result = SCHEMAS[type].safeParse(data);
  if (result.success) return undefined;
  return result.error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "the payload"}: ${issue.message}`)
    .join("; ");
}
