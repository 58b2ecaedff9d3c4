import {
  type ChannelInstance,
  ChorusError,
  type ConversationAddress,
  type MessageRef,
  type OutboundMessage,
  type RefScope,
} from "@chorus/core";
import type { Api } from "grammy";
import type { ChatAliases } from "./chat-aliases.js";
import { TelegramApiError } from "./errors.js";
import { sendStep } from "./media-send.js";
import { checkMediaLimits, TELEGRAM_MAX_TEXT, telegramSteps } from "./media-steps.js";
import { addressOf, telegramMessageRef } from "./ref.js";

export { TELEGRAM_MAX_TEXT };

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
    /**
     * Sends `message` as Telegram messages, in order (see `telegramSteps`): its text in 4096-character
     * parts, its media (albums where they can share one), its location; into the topic, the first one
     * replying. A medium over Telegram's limit is refused before anything is sent. Returns the ref of
     * the first message (an album's first item); refs are minted for every message Telegram made.
     */
    async send(conversation: ConversationAddress, message: OutboundMessage): Promise<MessageRef> {
      const refScope = scope();
      checkMediaLimits(message.media ?? []);
      const steps = telegramSteps(message);
      if (steps.length === 0) steps.push({ kind: "text", text: message.text });
      const reply = message.replyTo ? addressOf(message.replyTo) : undefined;
      const refs: MessageRef[] = [];
      for (const step of steps) {
        const sent = await withMigration(conversation.id, (chatId) =>
          sendStep(api, step, {
            chatId,
            threadId: conversation.threadId,
            // Only the first message answers.
            replyTo: refs.length === 0 ? reply?.messageId : undefined,
          }),
        );
        for (const one of sent) {
          refs.push(
            telegramMessageRef(refScope, {
              conversationId: conversation.id,
              chatId: String(one.chat.id),
              messageId: one.message_id,
              ...(conversation.threadId !== undefined ? { threadId: conversation.threadId } : {}),
              fromBot: true,
            }),
          );
        }
      }
      const [first] = refs;
      if (!first) throw new ChorusError("E_PLATFORM", "Telegram made no message of the send");
      return first;
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
