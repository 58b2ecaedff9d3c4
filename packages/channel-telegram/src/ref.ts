import { type MessageRef, mintRef, type RefScope } from "@chorus/core";

/** What addresses one Telegram message: the chat it is in now, its id, its topic. */
export interface TelegramMessageAddress {
  /** The conversation id the session uses (the oldest id of a migrated group). */
  conversationId: string;
  /** The chat id Telegram knows the message under. */
  chatId: string;
  messageId: number;
  /** Forum topic (`message_thread_id`) when the message is in one. */
  threadId?: string;
  /** The author's user id, when known; `fromBot` follows from it. */
  authorId?: string;
  /** Whether the bot sent it, when known without an author. */
  fromBot?: boolean;
}

/**
 * The `MessageRef` of a Telegram message (DESIGN §2.3): `chat_id` + `message_id` address it,
 * and `data.chatId` keeps the real chat id when a migrated group is known by its old one.
 */
export function telegramMessageRef(scope: RefScope, address: TelegramMessageAddress): MessageRef {
  return mintRef(scope, {
    conversationId: address.conversationId,
    messageId: String(address.messageId),
    ...(address.threadId !== undefined ? { threadId: address.threadId } : {}),
    ...(address.authorId !== undefined ? { authorId: address.authorId } : {}),
    ...(address.fromBot !== undefined ? { fromBot: address.fromBot } : {}),
    data: { chatId: address.chatId },
  });
}

/** The chat id and numeric message id of a ref; undefined when the ref cannot be a Telegram one. */
export function addressOf(ref: MessageRef): { chatId: string; messageId: number } | undefined {
  const chatId = typeof ref.data?.chatId === "string" ? ref.data.chatId : ref.conversationId;
  const messageId = Number(ref.messageId);
  if (!/^-?\d+$/.test(chatId) || !Number.isSafeInteger(messageId) || messageId <= 0) return undefined;
  return { chatId, messageId };
}
