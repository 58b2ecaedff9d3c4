import { createFakeServer, type FakeResponse, type FakeServer, type RequestContext } from "@chorus/testkit";
import type { Message, ReactionType, Update, User } from "grammy/types";
import { reactionKey } from "../vocabulary.js";
import { type FakeChat, FakeTelegramState, type UpdateBody, type UserMessageInput } from "./fake-state.js";
import { FakeUpdateFeed, type FakeWebhook, fail, ok } from "./fake-updates.js";

export interface FakeTelegramOptions {
  /** The bot token requests must carry in the path (`/bot<token>/<method>`). */
  token?: string;
  bot?: Partial<User> & { username?: string };
}

/** A stateful fake Telegram Bot API on 127.0.0.1 that grammY talks to through `apiRoot`. */
export interface FakeTelegram {
  readonly server: FakeServer;
  readonly state: FakeTelegramState;
  readonly url: string;
  readonly token: string;
  readonly bot: User & { username: string };
  /** The webhook set with setWebhook, if any. */
  readonly webhook: FakeWebhook | undefined;
  /** The last `allowed_updates` the bot asked for (getUpdates or setWebhook). */
  readonly allowedUpdates: readonly string[] | undefined;
  start(): Promise<string>;
  close(): Promise<void>;
  /** The `channels.telegram` block pointing the plugin at this fake. */
  config(extra?: Record<string, unknown>): Record<string, unknown>;
  addChat(chat: FakeChat): FakeChat;
  /** A person writes; the `message` update is queued (and pushed to a webhook if set). */
  userSends(input: UserMessageInput): Message;
  /** Creates a forum topic in a forum supergroup; returns its `message_thread_id`. */
  createTopic(chatId: number, name: string, from: User): number;
  /** A person sets their reactions on a message (replacing theirs); queues `message_reaction`. */
  userReacts(chatId: number, messageId: number, user: User, emoji: string[]): Update;
  /** Upgrades a group to a supergroup with id `to`; queues both service messages. */
  migrateGroup(from: number, to: number, by: User): void;
  /** Queues any update (fixtures). */
  enqueue(body: UpdateBody): Update;
  /** Posts an update to a URL like Telegram's webhook delivery does; `secretToken` overrides the header. */
  deliver(url: string, update: Update, options?: { secretToken?: string | null }): Promise<Response>;
  /** The bot's reactions on a message (emoji, or custom emoji ids). */
  botReactions(chatId: number, messageId: number): string[];
  reactionsBy(chatId: number, messageId: number, userId: number): string[];
  messagesIn(chatId: number): Message[];
}

type Ctx = RequestContext<undefined>;
type Params = Record<string, unknown>;
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
/** Creates (not yet started) a fake Telegram Bot API. */
export function createFakeTelegram(options: FakeTelegramOptions = {}): FakeTelegram {
  const token = options.token ?? "123456789:TEST-fake-token_abcdefghijklmnopqrstu";
  const bot = {
    id: Number(token.split(":")[0]),
    is_bot: true as const,
    first_name: "Chorus",
    username: "chorus_test_bot",
    can_join_groups: true,
    can_read_all_group_messages: false,
    supports_inline_queries: false,
    ...options.bot,
  } as User & { username: string };
  const state = new FakeTelegramState(bot);
  const server = createFakeServer();
  const feed = new FakeUpdateFeed(state);
  const queued = (update: Update) => feed.queued(update);
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

  const methods: Record<string, (p: Params) => FakeResponse | Promise<FakeResponse>> = {
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
    getWebhookInfo: () =>
      ok({ url: feed.webhook?.url ?? "", has_custom_certificate: false, pending_update_count: state.pending.length }),
    getUpdates: (p) => feed.poll(p),
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
      const chat = chatOf(p);
      if (isResponse(chat)) return chat;
      const text = typeof p.text === "string" ? p.text : "";
      if (text.trim() === "") return fail(400, "Bad Request: message text is empty");
      if (text.length > 4096) return fail(400, "Bad Request: message is too long");
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
      return ok(
        state.postMessage(chat.id, bot, {
          text,
          ...(found !== undefined ? { replyTo: found } : {}),
          ...(threadId !== undefined && chat.is_forum ? { threadId } : {}),
        }),
      );
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

  server.route("*", /^\/bot(?<token>[^/]+)\/(?<method>[A-Za-z]+)$/, (ctx: Ctx) => {
    if (ctx.params.token !== token) return fail(401, "Unauthorized");
    const method = methods[ctx.params.method ?? ""];
    if (!method) return fail(404, "Not Found");
    const params = (ctx.rawBody.length > 0 ? ctx.json<Params>() : Object.fromEntries(ctx.query)) ?? {};
    return method(params);
  });

  const userSends = (input: UserMessageInput): Message => {
    const message = state.postMessage(input.chatId, input.from, {
      text: input.text,
      ...(input.entities ? { entities: input.entities } : {}),
      ...(input.replyTo !== undefined ? { replyTo: input.replyTo } : {}),
      ...(input.threadId !== undefined ? { threadId: input.threadId } : {}),
    });
    queued(state.enqueue({ message }));
    return message;
  };

  return {
    server,
    state,
    token,
    bot,
    get url() {
      return server.url;
    },
    get webhook() {
      return feed.webhook;
    },
    get allowedUpdates() {
      return feed.allowedUpdates;
    },
    start: () => server.start(),
    close: async () => {
      feed.close();
      await server.close();
    },
    config: (extra = {}) => ({
      botToken: token,
      apiRoot: server.url,
      pollTimeoutSeconds: 1,
      retries: 2,
      reconnectMinMs: 20,
      reconnectMaxMs: 200,
      ...extra,
    }),
    addChat: (chat) => state.addChat(chat),
    userSends,
    createTopic: (chatId, name, from) => {
      const message = state.postMessage(chatId, from, {
        forum_topic_created: { name, icon_color: 0x6fb9f0 },
      } as Partial<Message>);
      const topics = state.topics.get(chatId) ?? new Set<number>();
      topics.add(message.message_id);
      state.topics.set(chatId, topics);
      return message.message_id;
    },
    userReacts: (chatId, messageId, user, emoji) => {
      const reaction = emoji.map((e) => ({ type: "emoji", emoji: e }) as ReactionType);
      const old = state.setReactions(chatId, messageId, user.id, reaction);
      const chat = state.chat(chatId) as FakeChat;
      return queued(
        state.enqueue({
          message_reaction: {
            chat: state.chatObject(chat),
            message_id: messageId,
            user,
            date: Math.floor(Date.now() / 1000),
            old_reaction: old,
            new_reaction: reaction,
          },
        }),
      );
    },
    migrateGroup: (from, to, by) => {
      const old = state.chat(from) as FakeChat;
      state.addChat({ id: to, type: "supergroup", ...(old.title !== undefined ? { title: old.title } : {}) });
      queued(state.enqueue({ message: state.postMessage(from, by, { migrate_to_chat_id: to } as Partial<Message>) }));
      queued(state.enqueue({ message: state.postMessage(to, by, { migrate_from_chat_id: from } as Partial<Message>) }));
      old.migrated_to = to;
    },
    enqueue: (body) => queued(state.enqueue(body)),
    deliver: (url, update, deliverOptions = {}) =>
      feed.deliver(
        url,
        update,
        deliverOptions.secretToken === undefined ? feed.webhook?.secret_token : deliverOptions.secretToken,
      ),
    botReactions: (chatId, messageId) =>
      state.reactionsOf(chatId, messageId, bot.id).map((r) => reactionKey(r) ?? "paid"),
    reactionsBy: (chatId, messageId, userId) =>
      state.reactionsOf(chatId, messageId, userId).map((r) => reactionKey(r) ?? "paid"),
    messagesIn: (chatId) => [...state.messages.values()].filter((m) => m.chat.id === chatId),
  };
}
