import {
  type ChannelStore,
  ChorusError,
  type Conversation,
  type InboundMessageEvent,
  type InboundReactionEvent,
  mintRef,
  type RefScope,
  type ReplyContext,
  type z,
} from "@chorus/core";
import { attachmentsOf, MEDIUM_MESSAGE_TYPES } from "./attachments.js";
import { plainText } from "./content.js";
import type { FeishuDirectory } from "./directory.js";
import { emojiOfType } from "./vocabulary.js";
import * as wire from "./wire.js";

/** How long the channel remembers which message a topic thread started from (to post into it). */
export const THREAD_ROOT_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** What normalising needs: who the bot is, and where names and chats are looked up. */
export interface InboundContext {
  /** `botId` is the bot's open_id, the id its mentions carry. */
  readonly scope: RefScope;
  /** The app id (`cli_…`): an app's messages and reactions carry it instead of an open_id. */
  readonly appId: string;
  readonly directory: FeishuDirectory;
  readonly store: ChannelStore;
}

/** The store key of a topic thread's first message. */
export const threadRootKey = (threadId: string) => `threads/${encodeURIComponent(threadId)}`;

/**
 * `im.message.receive_v1` as a normalised message (DESIGN §3); undefined for messages not written
 * by a person (the bot's own, other apps'). Throws `E_INVALID_INPUT` naming what it cannot read.
 * The `eventId` is Feishu's `event_id`, which a redelivery keeps: the host drops the repeat.
 */
export async function normalizeMessage(data: unknown, ctx: InboundContext): Promise<InboundMessageEvent | undefined> {
  const { event_id, sender, message } = read(wire.messageReceiveSchema, data, "im.message.receive_v1");
  const senderId = sender.sender_id?.open_id;
  if (sender.sender_type !== "user" || !senderId || senderId === ctx.scope.botId) return undefined;
  const mentions = message.mentions ?? [];
  const names = new Map<string, string>();
  for (const mention of mentions) {
    const openId = mention.id?.open_id;
    names.set(mention.key, mention.name || openId || mention.key);
    if (openId) ctx.directory.learnName(openId, mention.name);
  }
  const attachments = attachmentsOf(message.message_id, message.message_type, message.content);
  // A medium alone is a message with the text "" (its attachment says what it is); rich text keeps its text.
  const mediumOnly = attachments.length > 0 && MEDIUM_MESSAGE_TYPES.has(message.message_type);
  const text = mediumOnly ? "" : plainText(message.message_type, message.content, names);
  const mentioned = mentions.map((m) => m.id?.open_id).filter((id): id is string => Boolean(id));
  const kind = message.chat_type === "p2p" ? "direct" : "group";
  const chat = await ctx.directory.chat(message.chat_id);
  const conversation: Conversation = {
    id: message.chat_id,
    kind,
    ...(kind === "group" && chat?.title ? { title: chat.title } : {}),
    ...(kind === "group" && chat?.members ? { members: chat.members } : {}),
    ...(message.thread_id ? { threadId: message.thread_id } : {}),
  };
  // A topic thread is its own conversation; the bot posts into it by replying to its first message
  // (the message itself when it starts the topic: it has a thread but no root).
  if (message.thread_id) {
    const root = message.root_id ?? message.message_id;
    await ctx.store.set(threadRootKey(message.thread_id), root, { ttlMs: THREAD_ROOT_TTL_MS });
  }
  const name = await ctx.directory.userName(senderId);
  return {
    type: "message",
    eventId: event_id,
    conversation,
    sender: { id: senderId, ...(name ? { name } : {}) },
    text,
    ...(attachments.length > 0 ? { attachments } : {}),
    mentions: { bot: mentioned.includes(ctx.scope.botId), others: mentioned.filter((id) => id !== ctx.scope.botId) },
    ...(message.parent_id ? { replyTo: await replyContext(message.parent_id, ctx) } : {}),
    ref: mintRef(ctx.scope, {
      conversationId: message.chat_id,
      messageId: message.message_id,
      ...(message.thread_id ? { threadId: message.thread_id } : {}),
      authorId: senderId,
    }),
    timestamp: Number(message.create_time),
  };
}

/**
 * A reaction event as a normalised one; undefined for the app's own. Feishu names only the
 * message, so its chat is looked up; throws when it cannot be (the event is then delivered again).
 */
export async function normalizeReaction(
  data: unknown,
  action: "added" | "removed",
  ctx: InboundContext,
): Promise<InboundReactionEvent | undefined> {
  const what = action === "added" ? "im.message.reaction.created_v1" : "im.message.reaction.deleted_v1";
  const event = read(wire.reactionEventSchema, data, what);
  const byApp = event.operator_type === "app";
  if (byApp && (event.app_id === undefined || event.app_id === ctx.appId)) return undefined;
  const actorId = byApp ? (event.app_id as string) : event.user_id?.open_id;
  if (!actorId) throw new ChorusError("E_INVALID_INPUT", `unreadable ${what}: user_id.open_id is missing`);
  if (actorId === ctx.scope.botId) return undefined;
  const target = await ctx.directory.message(event.message_id);
  const chat = await ctx.directory.chat(target.chatId);
  if (!chat) throw new ChorusError("E_PLATFORM", `could not look up the chat of message ${event.message_id}`);
  const name = byApp ? undefined : await ctx.directory.userName(actorId);
  return {
    type: "reaction",
    eventId: event.event_id,
    conversation: {
      id: target.chatId,
      kind: chat.kind,
      ...(chat.title ? { title: chat.title } : {}),
      ...(target.threadId ? { threadId: target.threadId } : {}),
    },
    target: mintRef(ctx.scope, {
      conversationId: target.chatId,
      messageId: event.message_id,
      ...(target.threadId ? { threadId: target.threadId } : {}),
      fromBot: target.fromBot,
    }),
    // The agent reads 👍 better than THUMBSUP; Feishu's own stickers keep their names.
    emoji: emojiOfType(event.reaction_type.emoji_type),
    action,
    actor: { id: actorId, ...(name ? { name } : {}), ...(byApp ? { isBot: true } : {}) },
    timestamp: millis(event.action_time),
  };
}

/** The message a reply answers; when it cannot be looked up, what the event itself says. */
async function replyContext(parentId: string, ctx: InboundContext): Promise<ReplyContext> {
  try {
    const parent = await ctx.directory.message(parentId);
    return {
      messageId: parentId,
      fromBot: parent.fromBot,
      senderId: parent.fromBot ? ctx.scope.botId : parent.senderId,
      ...(parent.text !== undefined ? { text: parent.text } : {}),
    };
  } catch {
    return { messageId: parentId, fromBot: false };
  }
}

/** Feishu's times are strings of milliseconds (some older examples give seconds); now when absent. */
function millis(value: string | undefined): number {
  const time = Number(value);
  if (!Number.isFinite(time) || time <= 0) return Date.now();
  return time < 1e12 ? time * 1000 : time;
}

function read<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`);
  throw new ChorusError("E_INVALID_INPUT", `unreadable ${what}: ${problems.join("; ")}`);
}
