import type {
  Conversation,
  InboundEvent,
  InboundMessageEvent,
  InboundReactionEvent,
  Participant,
  RefScope,
} from "@chorus/core";
import type { Chat, Message, MessageReactionUpdated, Update, User } from "grammy/types";
import { attachmentsOf, mediumNote } from "./attachments.js";
import { type BotUser, mentionFacts } from "./mentions.js";
import { telegramMessageRef } from "./ref.js";
import { reactionKey } from "./vocabulary.js";

/** Update types the bot asks for: reactions must be listed explicitly or Telegram never sends them. */
export const ALLOWED_UPDATES = ["message", "message_reaction", "message_reaction_count"] as const;

/** What `normalizeUpdate` needs besides the update. */
export interface InboundContext {
  /** Mints the refs of this instance. */
  scope: RefScope;
  /** The bot itself (`getMe`): its own echoes are dropped, its mentions recognised. */
  bot: BotUser;
  /** The conversation id a chat is known by (see `ChatAliases`). */
  conversationId(chatId: string): string;
}

/** A group became a supergroup: `from` is the old chat id, `to` the new one. */
export interface Migration {
  from: string;
  to: string;
}

/** The normalized events of one update, and a migration it announced. */
export interface NormalizedUpdate {
  events: InboundEvent[];
  migration?: Migration;
}

/**
 * Turns one Bot API update (checked by `readUpdate`) into Chorus events; the bot's own messages and
 * unknown kinds give none. Event ids derive from `update_id`, so a redelivered update repeats them.
 */
export function normalizeUpdate(update: Update, ctx: InboundContext): NormalizedUpdate {
  if (update.message) return normalizeMessage(update.update_id, update.message, ctx);
  if (update.message_reaction) return { events: reactionEvents(update.update_id, update.message_reaction, ctx) };
  // `message_reaction_count` is anonymous (no actor) and delayed: there is no one to attribute it to.
  return { events: [] };
}

function normalizeMessage(updateId: number, message: Message, ctx: InboundContext): NormalizedUpdate {
  const chatId = String(message.chat.id);
  if (message.migrate_to_chat_id !== undefined) {
    return { events: [], migration: { from: chatId, to: String(message.migrate_to_chat_id) } };
  }
  if (message.migrate_from_chat_id !== undefined) {
    return { events: [], migration: { from: String(message.migrate_from_chat_id), to: chatId } };
  }
  const conversation = conversationOf(message.chat, ctx, topicOf(message));
  const attachments = attachmentsOf(message);
  // A caption is the text of a medium; a medium alone is a message with the text "".
  const text = message.text ?? message.caption ?? (attachments.length > 0 ? "" : undefined);
  // The bot's own messages (echoes), channel posts and service messages (joins, pins) are no input.
  if (!conversation || text === undefined || message.from?.id === ctx.bot.id) return { events: [] };
  const sender = message.sender_chat ? chatParticipant(message.sender_chat) : message.from && participant(message.from);
  if (!sender) return { events: [] };
  const reply = realReply(message);
  const replyText = reply ? (reply.text ?? reply.caption ?? mediumNote(reply)) : undefined;
  const event: InboundMessageEvent = {
    type: "message",
    eventId: String(updateId),
    conversation,
    sender,
    text,
    mentions: mentionFacts(message, ctx.bot),
    ...(attachments.length > 0 ? { attachments } : {}),
    ...(reply
      ? {
          replyTo: {
            messageId: String(reply.message_id),
            fromBot: reply.from?.id === ctx.bot.id,
            ...(reply.from ? { senderId: String(reply.from.id) } : {}),
            ...(replyText !== undefined ? { text: replyText } : {}),
          },
        }
      : {}),
    ref: telegramMessageRef(ctx.scope, {
      conversationId: conversation.id,
      chatId,
      messageId: message.message_id,
      ...(conversation.threadId !== undefined ? { threadId: conversation.threadId } : {}),
      ...(message.from ? { authorId: String(message.from.id) } : { fromBot: false }),
    }),
    timestamp: message.date * 1000,
  };
  return { events: [event] };
}

/**
 * `new_reaction` minus `old_reaction` are added, the reverse removed: one event per emoji. The
 * target says nothing about its author (Telegram does not either): the gateway knows from its
 * message index whether the bot sent it, also for messages sent before a restart.
 */
function reactionEvents(updateId: number, update: MessageReactionUpdated, ctx: InboundContext): InboundReactionEvent[] {
  const actor = update.user ? participant(update.user) : update.actor_chat && chatParticipant(update.actor_chat);
  // Telegram does not report a bot's own reactions; the check keeps a replayed one out too.
  if (!actor || update.user?.id === ctx.bot.id) return [];
  const conversation = conversationOf(update.chat, ctx, undefined);
  if (!conversation) return [];
  const chatId = String(update.chat.id);
  const target = telegramMessageRef(ctx.scope, {
    conversationId: conversation.id,
    chatId,
    messageId: update.message_id,
  });
  const before = new Set(update.old_reaction.map(reactionKey).filter(isString));
  const after = new Set(update.new_reaction.map(reactionKey).filter(isString));
  const changes = [
    ...[...after].filter((e) => !before.has(e)).map((emoji) => ({ emoji, action: "added" as const })),
    ...[...before].filter((e) => !after.has(e)).map((emoji) => ({ emoji, action: "removed" as const })),
  ];
  return changes.map(({ emoji, action }, index) => ({
    type: "reaction",
    eventId: `${updateId}:${index}`,
    conversation,
    target,
    emoji,
    action,
    actor,
    timestamp: update.date * 1000,
  }));
}

function conversationOf(chat: Chat, ctx: InboundContext, threadId: string | undefined): Conversation | undefined {
  const type = chatType(chat);
  if (type === "channel") return undefined;
  const id = ctx.conversationId(String(chat.id));
  if (type === "private") {
    const name = "first_name" in chat ? [chat.first_name, chat.last_name].filter(Boolean).join(" ") : "";
    return { id, kind: "direct", ...(name ? { title: name } : {}) };
  }
  const title = "title" in chat ? chat.title : undefined;
  return { id, kind: "group", ...(title ? { title } : {}), ...(threadId !== undefined ? { threadId } : {}) };
}

/**
 * A chat's type; where Telegram's own examples leave it out, its id tells: people (and so private
 * chats) have positive ids, groups, supergroups and channels negative ones (Bot API, `Chat.id`).
 */
function chatType(chat: Chat): Chat["type"] {
  return (chat.type as Chat["type"] | undefined) ?? (chat.id > 0 ? "private" : "group");
}

/** Forum topics are their own conversations; a reply thread in an ordinary group is not. */
function topicOf(message: Message): string | undefined {
  const forum = chatType(message.chat) === "supergroup" && message.chat.is_forum === true;
  return forum && message.is_topic_message && message.message_thread_id !== undefined
    ? String(message.message_thread_id)
    : undefined;
}

/** In a forum topic every message "replies" to the topic's creation message: that is no reply. */
function realReply(message: Message): Message | undefined {
  const reply = message.reply_to_message;
  if (!reply || reply.forum_topic_created) return undefined;
  if (message.is_topic_message && reply.message_id === message.message_thread_id) return undefined;
  return reply;
}

function participant(user: User): Participant {
  const name = [user.first_name, user.last_name].filter(Boolean).join(" ") || user.username || String(user.id);
  return { id: String(user.id), name, ...(user.is_bot ? { isBot: true } : {}) };
}

function chatParticipant(chat: Chat): Participant {
  return { id: String(chat.id), name: "title" in chat && chat.title ? chat.title : String(chat.id) };
}

function isString(value: string | undefined): value is string {
  return value !== undefined;
}
