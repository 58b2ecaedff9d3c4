import type { FakeResponse } from "@chorus/testkit";
import type { ReactionType, User } from "grammy/types";
import type { Params } from "./fake-requests.js";
import type { FakeChat, FakeTelegramState } from "./fake-state.js";
import { type FakeUpdateFeed, fail, ok } from "./fake-updates.js";

export type { Params } from "./fake-requests.js";
/** The HTTP connection a call came on: whether the client still holds it open. */
export interface FakeConnection {
  alive(): boolean;
}

/** One Bot API method of the fake. */
export type FakeMethod = (params: Params, connection: FakeConnection) => FakeResponse | Promise<FakeResponse>;

const CHAT_ACTIONS = [
  "typing",
  "upload_photo",
  "record_video",
  "upload_video",
  "record_voice",
  "upload_voice",
  "upload_document",
  "choose_sticker",
  "find_location",
  "record_video_note",
  "upload_video_note",
];

/** Where a send goes: the chat, the forum topic, and the message it answers (when it is there). */
export interface SendTarget {
  chat: FakeChat;
  threadId?: number;
  replyTo?: number;
}

/** The chat, topic and reply of a send, checked as Telegram checks them; or Telegram's refusal. */
export function sendTarget(state: FakeTelegramState, p: Params): SendTarget | FakeResponse {
  const chat = state.chat(Number(p.chat_id));
  if (!chat) return fail(400, "Bad Request: chat not found");
  if (chat.migrated_to !== undefined) {
    return fail(400, "Bad Request: group chat was upgraded to a supergroup chat", {
      migrate_to_chat_id: chat.migrated_to,
    });
  }
  const threadId = p.message_thread_id === undefined ? undefined : Number(p.message_thread_id);
  if (threadId !== undefined && chat.is_forum && !state.topics.get(chat.id)?.has(threadId)) {
    return fail(400, "Bad Request: message thread not found");
  }
  const reply = p.reply_parameters as { message_id?: number; allow_sending_without_reply?: boolean } | undefined;
  const replyTo = reply?.message_id;
  if (replyTo !== undefined && !state.message(chat.id, replyTo) && !reply?.allow_sending_without_reply) {
    return fail(400, "Bad Request: message to be replied not found");
  }
  const found = replyTo !== undefined && state.message(chat.id, replyTo) ? replyTo : undefined;
  return {
    chat,
    ...(threadId !== undefined && chat.is_forum ? { threadId } : {}),
    ...(found !== undefined ? { replyTo: found } : {}),
  };
}

/** Whether a value is Telegram's refusal rather than what was asked for. */
export function isRefusal<T extends object>(value: T | FakeResponse): value is FakeResponse {
  return "status" in value || "json" in value;
}

/**
 * The Bot API methods the fake implements, with Telegram's rules and error texts. `bot` is what
 * `getMe` answers (with the bot-only fields); messages the bot sends carry the short user form.
 */
export function fakeMethods(state: FakeTelegramState, feed: FakeUpdateFeed, bot: User): Record<string, FakeMethod> {
  const sender: User = { id: bot.id, is_bot: true, first_name: bot.first_name, username: bot.username as string };
  const chatOf = (params: Params): FakeChat | FakeResponse => {
    const chat = state.chat(Number(params.chat_id));
    if (!chat) return fail(400, "Bad Request: chat not found");
    if (chat.migrated_to !== undefined) {
      return fail(400, "Bad Request: group chat was upgraded to a supergroup chat", {
        migrate_to_chat_id: chat.migrated_to,
      });
    }
    return chat;
  };
  const isResponse = (value: FakeChat | FakeResponse): value is FakeResponse => "status" in value || "json" in value;

  return {
    getMe: () => ok(bot),
    deleteWebhook: (p) => {
      feed.webhook = undefined;
      if (p.drop_pending_updates === true) state.pending.splice(0);
      return ok(true);
    },
    setWebhook: (p) => {
      if (typeof p.url !== "string" || !/^https?:\/\//.test(p.url))
        return fail(400, "Bad Request: bad webhook: invalid URL");
      if (p.secret_token !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(String(p.secret_token))) {
        return fail(400, "Bad Request: secret token contains unallowed characters");
      }
      feed.webhook = { url: p.url, ...(p.secret_token !== undefined ? { secret_token: String(p.secret_token) } : {}) };
      if (Array.isArray(p.allowed_updates)) feed.allowedUpdates = p.allowed_updates.map(String);
      feed.push();
      return ok(true);
    },
    getWebhookInfo: () => {
      const error = feed.webhook ? feed.sender.lastError : undefined;
      return ok({
        url: feed.webhook?.url ?? "",
        has_custom_certificate: false,
        pending_update_count: state.pending.length,
        ...(error ? { last_error_date: error.date, last_error_message: error.message } : {}),
        ...(feed.allowedUpdates ? { allowed_updates: feed.allowedUpdates } : {}),
      });
    },
    getUpdates: (p, connection) => feed.poll(p, connection),
    getChat: (p) => {
      const chat = state.chat(Number(p.chat_id));
      if (!chat) return fail(400, "Bad Request: chat not found");
      return ok({
        ...state.chatObject(chat),
        accent_color_id: 0,
        max_reaction_count: 11,
        ...(chat.available_reactions ? { available_reactions: chat.available_reactions } : {}),
      });
    },
    sendMessage: (p) => {
      const target = sendTarget(state, p);
      if (isRefusal(target)) return target;
      const text = typeof p.text === "string" ? p.text : "";
      if (text.trim() === "") return fail(400, "Bad Request: message text is empty");
      if (text.length > 4096) return fail(400, "Bad Request: message is too long");
      const { chat, threadId, replyTo } = target;
      const sent = state.postMessage(chat.id, sender, {
        text,
        ...(replyTo !== undefined ? { replyTo } : {}),
        ...(threadId !== undefined ? { threadId } : {}),
      });
      state.hooks.botMessage?.(sent);
      return ok(sent);
    },
    sendChatAction: (p) => {
      const chat = chatOf(p);
      if (isResponse(chat)) return chat;
      if (!CHAT_ACTIONS.includes(String(p.action))) return fail(400, "Bad Request: wrong parameter action in request");
      state.chatActions.push({
        chat_id: chat.id,
        action: String(p.action),
        ...(p.message_thread_id !== undefined ? { message_thread_id: Number(p.message_thread_id) } : {}),
      });
      return ok(true);
    },
    setMessageReaction: (p) => {
      const chat = chatOf(p);
      if (isResponse(chat)) return chat;
      const messageId = Number(p.message_id);
      if (!state.message(chat.id, messageId)) return fail(400, "Bad Request: message to react not found");
      const reaction = (p.reaction ?? []) as ReactionType[];
      if (!Array.isArray(reaction)) return fail(400, "Bad Request: can't parse reaction types JSON object");
      // Non-premium accounts, bots included, hold one reaction per message.
      if (reaction.length > 1) return fail(400, "Bad Request: REACTIONS_TOO_MANY");
      for (const r of reaction) {
        const problem = state.reactionProblem(chat, messageId, r);
        if (problem) return fail(400, `Bad Request: ${problem}`);
      }
      // Bots never receive updates about their own reactions: nothing is queued.
      state.setReactions(chat.id, messageId, bot.id, reaction);
      return ok(true);
    },
  };
}
