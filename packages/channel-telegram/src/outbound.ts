import {
  type ChannelInstance,
  ChorusError,
  type ConversationAddress,
  type MessageRef,
  type OutboundMessage,
  type RefScope,
  splitText,
} from "@chorus/core";
import type { Api } from "grammy";
import type { ChatAliases } from "./chat-aliases.js";
import { TelegramApiError } from "./errors.js";
import { addressOf, telegramMessageRef } from "./ref.js";

/** Telegram's limit for one message's text, in characters after entity parsing. */
export const TELEGRAM_MAX_TEXT = 4096;

/** What the instance calls to send, show typing and find messages again. */
export type TelegramOutbound = Pick<ChannelInstance, "send" | "setTyping" | "resolveMessageRef">;

/** Sending, typing and finding messages again: everything the bot does that is not a reaction. */
export function createOutbound(api: Api, scope: () => RefScope, aliases: ChatAliases): TelegramOutbound {
  /** Runs a call for a conversation; when Telegram says the group became a supergroup, records it and retries there. */
  const withMigration = async <T>(conversationId: string, call: (chatId: string) => Promise<T>): Promise<T> => {
    const chatId = aliases.chatId(conversationId);
    try {
      return await call(chatId);
    } catch (error) {
      const to = error instanceof TelegramApiError ? error.parameters.migrate_to_chat_id : undefined;
      if (to === undefined) throw error;
      await aliases.migrate(chatId, String(to));
      return call(String(to));
    }
  };

  return {
    /** Sends `message` in 4096-character parts (into the topic, replying with the first); returns the first part's ref. */
    async send(conversation: ConversationAddress, message: OutboundMessage): Promise<MessageRef> {
      const refScope = scope();
      const parts = splitText(message.text, TELEGRAM_MAX_TEXT);
      const reply = message.replyTo ? addressOf(message.replyTo) : undefined;
      let first: MessageRef | undefined;
      for (const [index, text] of parts.entries()) {
        const sent = await withMigration(conversation.id, (chat) =>
          api.sendMessage(chat, text, {
            ...(conversation.threadId !== undefined ? { message_thread_id: Number(conversation.threadId) } : {}),
            // Only the first part answers; `allow_sending_without_reply` keeps a deleted original from failing the answer.
            ...(index === 0 && reply
              ? { reply_parameters: { message_id: reply.messageId, allow_sending_without_reply: true } }
              : {}),
          }),
        );
        first ??= telegramMessageRef(refScope, {
          conversationId: conversation.id,
          chatId: String(sent.chat.id),
          messageId: sent.message_id,
          ...(conversation.threadId !== undefined ? { threadId: conversation.threadId } : {}),
          fromBot: true,
        });
      }
      return first as MessageRef;
    },

    /** Shows "typing…" (Telegram shows it for 5 s or until the next message; there is no "off"). */
    async setTyping(conversation: ConversationAddress, on: boolean): Promise<void> {
      if (!on) return;
      await withMigration(conversation.id, (chat) =>
        api.sendChatAction(chat, "typing", {
          ...(conversation.threadId !== undefined ? { message_thread_id: Number(conversation.threadId) } : {}),
        }),
      );
    },

    /**
     * The ref of a message id the agent saw. The Bot API cannot fetch a message, so the ref is
     * built from the conversation (chat) and the numeric id; Telegram checks it when it is used.
     * Who wrote it is unknown here: the gateway's message index knows it for every message it saw.
     */
    async resolveMessageRef(conversation: ConversationAddress, messageId: string): Promise<MessageRef> {
      const id = Number(messageId);
      if (!/^\d+$/.test(messageId) || !Number.isSafeInteger(id) || id <= 0) {
        throw new ChorusError("E_MESSAGE_NOT_FOUND", `"${messageId}" is not a Telegram message id (a positive number)`);
      }
      return telegramMessageRef(scope(), {
        conversationId: conversation.id,
        chatId: aliases.chatId(conversation.id),
        messageId: id,
        ...(conversation.threadId !== undefined ? { threadId: conversation.threadId } : {}),
      });
    },
  };
}
