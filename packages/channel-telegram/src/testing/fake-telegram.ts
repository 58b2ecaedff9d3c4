import {
  createFakeServer,
  type FakeServer,
  outage,
  type PlatformFault,
  type PlatformMessageMedia,
  type RequestContext,
} from "@chorus/testkit";
import type { Message, ReactionType, Update, User } from "grammy/types";
import { reactionKey } from "../vocabulary.js";
import { FakeFiles, type FakeLimits, TELEGRAM_LIMITS } from "./fake-files.js";
import { fakeMediaMethods } from "./fake-media-methods.js";
import { albumOf, platformMessageMedia } from "./fake-medium.js";
import { fakeMethods } from "./fake-methods.js";
import { FormDataError, isMultipart, type Params, paramsOf } from "./fake-requests.js";
import { type FakeChat, FakeTelegramState, type UpdateBody, type UserMessageInput } from "./fake-state.js";
import { FakeUpdateFeed, fail } from "./fake-updates.js";
import { type UserMediumInput, userMediumFields } from "./fake-user-media.js";
import { type FakeWebhook, WEBHOOK_RETRY, type WebhookAttempt, type WebhookRetryPolicy } from "./fake-webhook.js";

export interface FakeTelegramOptions {
  /** The bot token requests must carry in the path (`/bot<token>/<method>`). */
  token?: string;
  bot?: Partial<User> & { username?: string };
  /** How a webhook delivery that was not answered 2xx is retried (see `WebhookRetryPolicy`). */
  webhookRetry?: Partial<WebhookRetryPolicy>;
  /** Telegram's size limits, smaller for a test that proves one without a 50 MB file. */
  limits?: Partial<FakeLimits>;
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
  /** `getUpdates` calls answered 409 because another long poll was open (two pollers at once). */
  readonly pollConflicts: number;
  /** Every webhook delivery the fake pushed on its own (retries included), in order. */
  readonly webhookAttempts: readonly WebhookAttempt[];
  /** Updates the fake gave up on after its webhook retries, as Telegram does. */
  readonly abandonedUpdates: readonly Update[];
  /**
   * Sends the webhook's deliveries to `url` instead of the URL set with `setWebhook` (a public
   * one, which the fake never reaches): the reverse proxy in front of the gateway. Pending
   * updates are pushed there at once.
   */
  forwardWebhook(url: string): void;
  /** Where the webhook's deliveries are forwarded now (see `forwardWebhook`). */
  readonly webhookForward: string | undefined;
  start(): Promise<string>;
  close(): Promise<void>;
  /** The `channels.telegram` block pointing the plugin at this fake. */
  config(extra?: Record<string, unknown>): Record<string, unknown>;
  addChat(chat: FakeChat): FakeChat;
  /** A person writes; the `message` update is queued (and pushed to a webhook if set). */
  userSends(input: UserMessageInput): Message;
  /** A person sends a medium, a place or a contact card; its bytes are stored and the update queued. */
  userSendsMedium(input: UserMediumInput): Message;
  /** A person sends an album: one update per item, sharing a `media_group_id`, queued one after another. */
  userSendsAlbum(
    input: Omit<UserMediumInput, "sample" | "mediaGroupId"> & { samples: UserMediumInput["sample"][] },
  ): Message[];
  /** Every file the fake holds (uploads and what people sent), with its size limits and the bytes served. */
  readonly files: FakeFiles;
  /** What a message holds on the platform (all items of its album), with the uploaded bytes. */
  messageMedia(chatId: number, messageId: number): PlatformMessageMedia;
  /** The bot's messages in a chat. */
  botMessages(chatId: number): Message[];
  /** Creates a forum topic in a forum supergroup; returns its `message_thread_id`. */
  createTopic(chatId: number, name: string, from: User): number;
  /** A person sets their reactions on a message (replacing theirs); queues `message_reaction`. */
  userReacts(chatId: number, messageId: number, user: User, emoji: string[]): Update;
  /** Upgrades a group to a supergroup with id `to`; queues both service messages. */
  migrateGroup(from: number, to: number, by: User): void;
  /** Queues any update (fixtures). */
  enqueue(body: UpdateBody): Update;
  /**
   * Queues an update object exactly as given, `update_id` and all (a documented example, fields
   * missing or unknown included); a message in a chat added with `addChat` is stored, so the bot
   * can reply to it. Telegram's update ids only grow: give it an id above those confirmed already.
   */
  enqueueRaw(update: unknown): Update;
  /** Posts an update to a URL like Telegram's webhook delivery does; `secretToken` overrides the header. */
  deliver(url: string, update: Update, options?: { secretToken?: string | null }): Promise<Response>;
  /** Delivers the update queued last once more (a lost confirmation): to the webhook, or in the next poll. */
  redeliverLast(): Update;
  /** Queues a `message` update that lacks its `chat`, which no bot can read. */
  sendUnparseable(): Update;
  /** From now on every request misbehaves like `kind` (testkit's `outage`), until `heal()`. */
  fault(kind: PlatformFault): void;
  /** Ends every fault: the fake answers normally again. */
  heal(): void;
  /** The bot's reactions on a message (emoji, or custom emoji ids). */
  botReactions(chatId: number, messageId: number): string[];
  reactionsBy(chatId: number, messageId: number, userId: number): string[];
  messagesIn(chatId: number): Message[];
}

type Ctx = RequestContext<undefined>;

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
  const limits = { ...TELEGRAM_LIMITS, ...options.limits };
  const files = new FakeFiles(limits);
  // Room for a body over the upload limit, so the fake answers it as Telegram does (not the server's own 413).
  const server = createFakeServer({ maxBodyBytes: limits.uploadBytes * 2 + 1024 * 1024 });
  const feed = new FakeUpdateFeed(state, { ...WEBHOOK_RETRY, ...options.webhookRetry });
  const queued = (update: Update) => feed.queued(update);
  const methods = { ...fakeMethods(state, feed, bot), ...fakeMediaMethods(state, files, bot) };

  server.route("*", /^\/bot(?<token>[^/]+)\/(?<method>[A-Za-z]+)$/, async (ctx: Ctx) => {
    if (ctx.params.token !== token) return fail(401, "Unauthorized");
    const method = methods[ctx.params.method ?? ""];
    if (!method) return fail(404, "Not Found");
    // An upload over the limit is refused before it is read, whatever the method.
    if (isMultipart(ctx) && ctx.rawBody.length > limits.uploadBytes) return fail(413, "Request Entity Too Large");
    let params: Params;
    try {
      params = await paramsOf(ctx);
    } catch (error) {
      if (error instanceof FormDataError) return fail(400, error.message);
      throw error;
    }
    const socket = ctx.request.socket;
    return method(params, { alive: () => !socket.destroyed && socket.readable });
  });
  // The file endpoint (Bot API, getFile: `https://api.telegram.org/file/bot<token>/<file_path>`).
  server.route("GET", /^\/file\/bot(?<token>[^/]+)\/(?<path>.+)$/, (ctx: Ctx) => {
    const file = ctx.params.token === token ? files.byPath(ctx.params.path ?? "") : undefined;
    return file ? files.serve(file) : fail(404, "Not Found");
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
  const userSendsMedium = (input: UserMediumInput): Message => {
    const message = state.postMessage(input.chatId, input.from, {
      ...userMediumFields(files, input),
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
    get pollConflicts() {
      return feed.conflicts;
    },
    get webhookAttempts() {
      return feed.sender.attempts;
    },
    get abandonedUpdates() {
      return feed.sender.abandoned;
    },
    get webhookForward() {
      return feed.sender.forwardTo;
    },
    forwardWebhook: (url) => {
      feed.sender.forwardTo = url;
      feed.push();
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
      pollTimeoutMs: 1_000,
      retries: 2,
      reconnectMinMs: 20,
      reconnectMaxMs: 200,
      ...extra,
    }),
    addChat: (chat) => state.addChat(chat),
    userSends,
    userSendsMedium,
    userSendsAlbum: ({ samples, ...rest }) => {
      const mediaGroupId = String(13_500_000_000_000_000n + BigInt(state.messages.size));
      return samples.map((sample) => userSendsMedium({ ...rest, sample, mediaGroupId }));
    },
    files,
    messageMedia: (chatId, messageId) => {
      const message = state.message(chatId, messageId);
      if (!message) throw new Error(`fake Telegram: no message ${messageId} in chat ${chatId}`);
      return platformMessageMedia(files, albumOf(state.messages.values(), message));
    },
    botMessages: (chatId) => [...state.messages.values()].filter((m) => m.chat.id === chatId && m.from?.id === bot.id),
    createTopic: (chatId, name, from) => {
      const message = state.postMessage(chatId, from, {
        forum_topic_created: { name, icon_color: 0x6fb9f0 },
      } as Partial<Message>);
      // The creation message opens the topic: it is the topic's first message, and its id is the topic's.
      Object.assign(message, { message_thread_id: message.message_id, is_topic_message: true });
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
    enqueueRaw: (update) => queued(state.enqueueRaw(update)),
    deliver: (url, update, deliverOptions = {}) =>
      feed.deliver(
        url,
        update,
        deliverOptions.secretToken === undefined ? feed.webhook?.secret_token : deliverOptions.secretToken,
      ),
    redeliverLast: () => {
      const update = state.last;
      if (!update) throw new Error("fake Telegram: no update to redeliver");
      feed.redeliver(update);
      return update;
    },
    sendUnparseable: () => {
      const from = { id: 777_000_001, is_bot: false, first_name: "Mallory" };
      const message = { message_id: 1, from, date: Math.floor(Date.now() / 1000), text: "a message without its chat" };
      return queued(state.enqueue({ message }));
    },
    fault: (kind) => server.inject(outage(kind)),
    heal: () => server.clearFaults(),
    botReactions: (chatId, messageId) =>
      state.reactionsOf(chatId, messageId, bot.id).map((r) => reactionKey(r) ?? "paid"),
    reactionsBy: (chatId, messageId, userId) =>
      state.reactionsOf(chatId, messageId, userId).map((r) => reactionKey(r) ?? "paid"),
    messagesIn: (chatId) => [...state.messages.values()].filter((m) => m.chat.id === chatId),
  };
}
