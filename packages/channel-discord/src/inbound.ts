import type { Conversation, InboundMessageEvent, InboundReactionEvent, Participant, RefScope } from "@chorus/core";
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
import { reactionEmojiKey } from "./emoji.js";
import { discordMessageRef } from "./ref.js";

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

/** A Discord message as a normalized event, or undefined for the bot's own and for system messages. */
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
  return {
    type: "message",
    eventId: `message:${message.id}`,
    conversation: conversationOf(message),
    sender: participant(message.author, message.member?.displayName),
    text: message.cleanContent,
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
