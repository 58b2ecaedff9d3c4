import type { Chat, Message, MessageEntity, ReactionType, Update, User } from "grammy/types";
import { TELEGRAM_REACTION_EMOJI } from "../vocabulary.js";

/** What the Bot API server says about gifts in every basic group's chat object. */
const NO_GIFTS = {
  unlimited_gifts: false,
  limited_gifts: false,
  unique_gifts: false,
  premium_subscription: false,
  gifts_from_channels: false,
};

/** A chat the fake knows, with what getChat reports beyond the basics. */
export interface FakeChat {
  id: number;
  type: "private" | "group" | "supergroup" | "channel";
  title?: string;
  first_name?: string;
  is_forum?: boolean;
  /** Reactions admins allow here; absent = every standard reaction. */
  available_reactions?: ReactionType[];
  /** Set once a group was upgraded: sends answer 400 with `migrate_to_chat_id`. */
  migrated_to?: number;
}

/** A message someone (not the bot) writes in a test. */
export interface UserMessageInput {
  chatId: number;
  from: User;
  text: string;
  entities?: MessageEntity[];
  /** Message id in the same chat this one replies to. */
  replyTo?: number;
  /** Forum topic id. */
  threadId?: number;
}

/** An update without its id: `{ message }`, `{ message_reaction }`, … */
export type UpdateBody = Partial<Record<Exclude<keyof Update, "update_id">, unknown>>;

/** Everything the fake Bot API holds, and the rules that change it. */
/**
 * Observers a test can set to act at an exact moment (kill a client right after updates left,
 * or right after a message of the bot was stored and before its answer went out). Called
 * synchronously, before the answer is written.
 */
export interface FakeTelegramHooks {
  /** Updates are about to go out in a `getUpdates` answer. */
  delivered?(updates: readonly Update[]): void;
  /** The bot's message was stored (`sendMessage`), its answer not yet sent. */
  botMessage?(message: Message): void;
}

export class FakeTelegramState {
  /** See `FakeTelegramHooks`. */
  readonly hooks: FakeTelegramHooks = {};
  readonly chats = new Map<number, FakeChat>();
  /** `<chatId>:<messageId>` → message. */
  readonly messages = new Map<string, Message>();
  /** `<chatId>:<messageId>` → user id → that user's reactions (one slot for bots). */
  readonly reactions = new Map<string, Map<number, ReactionType[]>>();
  /** Updates not confirmed yet (by an offset above them, or a successful webhook delivery). */
  readonly pending: Update[] = [];
  /** The update queued last. */
  last: Update | undefined;
  /** Every chat action the bot sent. */
  readonly chatActions: { chat_id: number; action: string; message_thread_id?: number }[] = [];
  /** Forum topics per chat. */
  readonly topics = new Map<number, Set<number>>();
  readonly #nextMessage = new Map<number, number>();
  #nextUpdate = 100_000;

  constructor(readonly bot: User & { username: string }) {}

  addChat(chat: FakeChat): FakeChat {
    this.chats.set(chat.id, chat);
    return chat;
  }

  chat(id: number): FakeChat | undefined {
    return this.chats.get(id);
  }

  /**
   * The `Chat` object messages carry, with the fields the Bot API server sends (`id`, the title or
   * names, `is_forum` only when true, `type`; basic groups always add `all_members_are_administrators`
   * and `accepted_gift_types`).
   */
  chatObject(chat: FakeChat): Chat {
    const base = { id: chat.id } as Record<string, unknown>;
    if (chat.title !== undefined) base.title = chat.title;
    if (chat.first_name !== undefined) base.first_name = chat.first_name;
    if (chat.is_forum) base.is_forum = true;
    base.type = chat.type;
    if (chat.type === "group") {
      base.all_members_are_administrators = false;
      base.accepted_gift_types = NO_GIFTS;
    }
    return base as unknown as Chat;
  }

  /** Stores a new message (from a person or the bot) and returns it. */
  postMessage(chatId: number, from: User, fields: Partial<Message> & { replyTo?: number; threadId?: number }): Message {
    const chat = this.#known(chatId);
    const id = (this.#nextMessage.get(chatId) ?? 0) + 1;
    this.#nextMessage.set(chatId, id);
    const { replyTo, threadId, ...rest } = fields;
    const original = replyTo !== undefined ? this.messages.get(key(chatId, replyTo)) : undefined;
    const topicRoot = threadId !== undefined ? this.messages.get(key(chatId, threadId)) : undefined;
    const repliedTo = original ?? topicRoot;
    const message = {
      message_id: id,
      from,
      chat: this.chatObject(chat),
      date: Math.floor(Date.now() / 1000),
      ...(threadId !== undefined ? { message_thread_id: threadId, is_topic_message: true } : {}),
      ...(repliedTo ? { reply_to_message: stripReply(repliedTo) } : {}),
      ...rest,
    } as Message;
    this.messages.set(key(chatId, id), message);
    return message;
  }

  /** Queues an update; returns it with its id. */
  enqueue(body: UpdateBody): Update {
    const update = { update_id: this.#nextUpdate++, ...body } as Update;
    this.pending.push(update);
    this.last = update;
    return update;
  }

  /**
   * Queues an update exactly as given (a platform's documented example), its `update_id` kept;
   * the fake's own updates after it get higher ids, as Telegram's only grow. A message in a chat
   * the fake knows is stored too, so the bot can answer it and react to it.
   */
  enqueueRaw(payload: unknown): Update {
    const update = payload as { update_id?: unknown; message?: unknown };
    if (typeof update?.update_id !== "number") throw new Error("fake Telegram: a raw update needs a numeric update_id");
    this.#nextUpdate = Math.max(this.#nextUpdate, update.update_id + 1);
    const message = update.message as Partial<Message> | undefined;
    const chatId = message?.chat?.id;
    if (message && chatId !== undefined && this.chats.has(chatId) && typeof message.message_id === "number") {
      this.messages.set(key(chatId, message.message_id), message as Message);
      this.#nextMessage.set(chatId, Math.max(this.#nextMessage.get(chatId) ?? 0, message.message_id));
    }
    const raw = update as unknown as Update;
    this.pending.push(raw);
    this.last = raw;
    return raw;
  }

  /** Drops updates below `offset` (Telegram's confirmation by a `getUpdates` offset). */
  confirm(offset: number): void {
    const keep = this.pending.filter((u) => u.update_id >= offset);
    this.pending.splice(0, this.pending.length, ...keep);
  }

  /** Drops one update, and only that one (a webhook delivery answered 2xx, or given up on). */
  settle(updateId: number): void {
    const index = this.pending.findIndex((u) => u.update_id === updateId);
    if (index >= 0) this.pending.splice(index, 1);
  }

  /** Whether an update is still waiting to be confirmed. */
  isPending(updateId: number): boolean {
    return this.pending.some((u) => u.update_id === updateId);
  }

  /** A user's reactions on a message. */
  reactionsOf(chatId: number, messageId: number, userId: number): ReactionType[] {
    return this.reactions.get(key(chatId, messageId))?.get(userId) ?? [];
  }

  /** Replaces a user's reactions on a message; returns the previous ones. */
  setReactions(chatId: number, messageId: number, userId: number, reaction: ReactionType[]): ReactionType[] {
    const id = key(chatId, messageId);
    const byUser = this.reactions.get(id) ?? new Map<number, ReactionType[]>();
    const old = byUser.get(userId) ?? [];
    if (reaction.length === 0) byUser.delete(userId);
    else byUser.set(userId, reaction);
    this.reactions.set(id, byUser);
    return old;
  }

  /** Why Telegram would refuse this reaction from the bot on this message, or undefined. */
  reactionProblem(chat: FakeChat, messageId: number, reaction: ReactionType): string | undefined {
    if (reaction.type === "paid") return "REACTION_INVALID";
    if (reaction.type === "emoji") {
      // Exact list membership: `❤️` (with U+FE0F) is not `❤` and is refused.
      if (!(TELEGRAM_REACTION_EMOJI as readonly string[]).includes(reaction.emoji)) return "REACTION_INVALID";
      const allowed = chat.available_reactions;
      if (allowed && !allowed.some((r) => r.type === "emoji" && r.emoji === reaction.emoji)) return "REACTION_INVALID";
      return undefined;
    }
    if (reaction.type === "custom_emoji") {
      const allowedHere = chat.available_reactions?.some(
        (r) => r.type === "custom_emoji" && r.custom_emoji_id === reaction.custom_emoji_id,
      );
      const present = [...(this.reactions.get(key(chat.id, messageId))?.values() ?? [])]
        .flat()
        .some((r) => r.type === "custom_emoji" && r.custom_emoji_id === reaction.custom_emoji_id);
      return allowedHere || present ? undefined : "REACTION_INVALID";
    }
    return "REACTION_INVALID";
  }

  message(chatId: number, messageId: number): Message | undefined {
    return this.messages.get(key(chatId, messageId));
  }

  #known(chatId: number): FakeChat {
    const chat = this.chats.get(chatId);
    if (!chat) throw new Error(`fake Telegram: no chat ${chatId}`);
    return chat;
  }
}

function key(chatId: number, messageId: number): string {
  return `${chatId}:${messageId}`;
}

/** Telegram does not nest replies: the message replied to carries no `reply_to_message` of its own. */
function stripReply(message: Message): Message {
  const { reply_to_message: _nested, ...rest } = message as Message & { reply_to_message?: Message };
  return rest as Message;
}

/** `mention` entities for every `@username` in `text`, with UTF-16 offsets (what Telegram sends). */
export function mentionEntities(text: string): MessageEntity[] {
  return [...text.matchAll(/@[A-Za-z0-9_]{5,32}/g)].map((m) => ({
    type: "mention" as const,
    offset: m.index,
    length: m[0].length,
  }));
}
