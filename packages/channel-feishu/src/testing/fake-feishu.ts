import { createFakeServer, type FakeServer, outage, type PlatformFault } from "@chorus/testkit";
import { type FakeFeishuEvents as Events, FakeFeishuEvents } from "./fake-events.js";
import { FakeIm } from "./fake-im.js";
import { type ClientConfig, FakeLongConnection, FEISHU_CLIENT_CONFIG } from "./fake-long-connection.js";
import { FakeFeishuMedia } from "./fake-media.js";
import type { FakeMediaLimits } from "./fake-media-routes.js";
import { registerOpenApi } from "./fake-open-api.js";
import { FakeResources } from "./fake-resources.js";
import { type FakeChat, FakeFeishuState, type FakeMessage, type FakeUser } from "./fake-state.js";
import { FakeTokens } from "./fake-tokens.js";
import { FakeFeishuWebhooks, FEISHU_REDELIVERY } from "./fake-webhooks.js";
import { messageContent, type UserMessageInput } from "./user-messages.js";

export interface FakeFeishuOptions {
  /** Default `cli_a1b2c3d4e5f60718`; the SDK's long connection wants `cli_` and 16 hex digits. */
  appId?: string;
  appSecret?: string;
  verificationToken?: string;
  /** Encrypts and signs webhook deliveries. */
  encryptKey?: string;
  botName?: string;
  /** How the app receives events: the long connection (default) or the request URL (`webhooks.url`). */
  delivery?: "websocket" | "webhook";
  /** What the endpoint tells the SDK about pings and reconnects; Feishu's own values by default. */
  clientConfig?: Partial<ClientConfig>;
  /** How long Feishu waits for the app's answer (webhook) or response frame (long connection); default 3000, as Feishu. */
  ackTimeoutMs?: number;
  /**
   * The waits before Feishu pushes again an event the app did not acknowledge (default Feishu's:
   * 15 s, 5 min, 1 h, 6 h); short in tests.
   */
  retryDelaysMs?: readonly number[];
  /** Long events are split over frames of this size (default 64 KiB). */
  maxFramePayloadBytes?: number;
  /** Lifetime of a tenant token (default 7200 s, as Feishu). */
  tokenTtlSeconds?: number;
  /** The app may read names (a contact scope); default true. */
  contactScope?: boolean;
  /** The app receives every group message, not only those that @ it; default true. */
  groupMessageScope?: boolean;
  /** Feishu's media limits (images 10 MB, files 30 MB, downloads 100 MB); tests lower them. */
  limits?: Partial<FakeMediaLimits>;
}

const MB = 1024 * 1024;
/** Feishu's own limits: 上传图片 10 MB, 上传文件 30 MB, 获取消息中的资源文件 100 MB. */
const FEISHU_LIMITS: FakeMediaLimits = { maxImageBytes: 10 * MB, maxFileBytes: 30 * MB, maxDownloadBytes: 100 * MB };

/** A stateful fake Feishu / Lark on 127.0.0.1: the Open API, the long connection and webhook deliveries. */
export interface FakeFeishu {
  readonly server: FakeServer;
  readonly state: FakeFeishuState;
  readonly tokens: FakeTokens;
  readonly events: Events;
  readonly longConnection: FakeLongConnection;
  readonly webhooks: FakeFeishuWebhooks;
  /** People's media and the bot's uploads, by key; `media.userSends` sends one, `media.messageMedia` reads one back. */
  readonly media: FakeFeishuMedia;
  readonly url: string;
  readonly appId: string;
  readonly appSecret: string;
  readonly verificationToken: string;
  readonly encryptKey: string | undefined;
  readonly bot: { open_id: string; app_name: string };
  /** Whether the app may read names (a contact scope) and every group message. */
  contactScope: boolean;
  groupMessageScope: boolean;
  start(): Promise<string>;
  close(): Promise<void>;
  /** The `channels.feishu` block that points the plugin at this fake. */
  config(extra?: Record<string, unknown>): Record<string, unknown>;
  addUser(name: string, openId?: string): FakeUser;
  addChat(chat: { name: string; mode?: FakeChat["chat_mode"]; members: FakeUser[]; botIn?: boolean }): FakeChat;
  /**
   * Someone writes; resolves once Feishu delivered it: on the long connection once the bot answered
   * code 200 (or Feishu gave up), by webhook once the bot answered the first attempt (retries follow
   * on their own).
   */
  userSends(input: UserMessageInput): Promise<FakeMessage>;
  /** Someone reacts with an `emoji_type`; resolves once delivered. */
  userReacts(messageId: string, user: FakeUser, emojiType: string): Promise<void>;
  userUnreacts(messageId: string, user: FakeUser, emojiType: string): Promise<void>;
  /** Someone withdraws a message. */
  recall(messageId: string): void;
  /** Delivers the last event again by hand, with its `event_id`. */
  redeliverLast(): Promise<void>;
  /** Delivers, where an event belongs, an `im.message.receive_v1` that is not what Feishu documents. */
  deliverUnparseable(): Promise<void>;
  /** Webhook mode: posts a message carrying `text` signed with another key (or a wrong token); resolves with the status. */
  forge(text: string, to?: string): Promise<number>;
  /** Everything misbehaves like `kind` (the contract's outages) until `heal()`. */
  fault(kind: PlatformFault): void;
  heal(): void;
  /** Resolves once every event so far was delivered. */
  settled(): Promise<void>;
  /** The app's reactions on a message (emoji_types), as Feishu holds them. */
  botReactions(messageId: string): string[];
  reactionsBy(messageId: string, openId: string): string[];
  messagesIn(chatId: string): FakeMessage[];
  /** The plain text of a message the bot sent (its `md` or text content). */
  textOf(message: FakeMessage): string;
}

/** Creates (not yet started) a fake Feishu. */
export function createFakeFeishu(options: FakeFeishuOptions = {}): FakeFeishu {
  const appId = options.appId ?? "cli_a1b2c3d4e5f60718";
  const appSecret = options.appSecret ?? "fake-app-secret-0000000000000000";
  const verificationToken = options.verificationToken ?? "fake-verification-token-00000000";
  const state = new FakeFeishuState(appId, "736588c9260f175e");
  const bot = { open_id: "ou_b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0", app_name: options.botName ?? "Chorus" };
  const limits = { ...FEISHU_LIMITS, ...options.limits };
  // Bodies up to the largest upload (and its form) reach the routes, which answer Feishu's own refusals.
  const server = createFakeServer({ maxBodyBytes: Math.max(limits.maxImageBytes, limits.maxFileBytes) + MB });
  const tokens = new FakeTokens(options.tokenTtlSeconds ?? 7200);
  const events = new FakeFeishuEvents(state, verificationToken);
  const redelivery = {
    retryDelaysMs: options.retryDelaysMs ?? FEISHU_REDELIVERY.retryDelaysMs,
    answerWithinMs: options.ackTimeoutMs ?? FEISHU_REDELIVERY.answerWithinMs,
  };
  const webhooks = new FakeFeishuWebhooks(options.encryptKey, redelivery);
  const longConnection = new FakeLongConnection(server, {
    appId,
    appSecret,
    clientConfig: { ...FEISHU_CLIENT_CONFIG, ...options.clientConfig },
    maxFramePayloadBytes: options.maxFramePayloadBytes ?? 64 * 1024,
    redelivery,
  });
  const websocket = (options.delivery ?? "websocket") === "websocket";
  let last: unknown;
  let inFlight: Promise<unknown> = Promise.resolve();
  const deliver = (event: unknown): Promise<unknown> => {
    last = event;
    const delivered = websocket ? longConnection.push(event) : webhooks.deliver(event);
    inFlight = Promise.all([inFlight, delivered]);
    return delivered;
  };
  const scopes = { contact: options.contactScope ?? true, group: options.groupMessageScope ?? true };
  const resources = new FakeResources();
  const im = new FakeIm(state, events, deliver, () => scopes.group, bot.open_id, resources);
  const media = new FakeFeishuMedia(state, resources, im, textOf);
  registerOpenApi({ server, state, tokens, im, appSecret, bot, contactScope: () => scopes.contact, resources, limits });

  return {
    server,
    state,
    tokens,
    events,
    longConnection,
    webhooks,
    media,
    appId,
    appSecret,
    verificationToken,
    encryptKey: options.encryptKey,
    bot,
    get url() {
      return server.url;
    },
    get contactScope() {
      return scopes.contact;
    },
    set contactScope(value) {
      scopes.contact = value;
    },
    get groupMessageScope() {
      return scopes.group;
    },
    set groupMessageScope(value) {
      scopes.group = value;
    },
    start: () => server.start(),
    async close() {
      // Retries still to come are dropped.
      await webhooks.close();
      longConnection.close();
      await server.close();
    },
    config: (extra = {}) => ({
      appId,
      appSecret,
      domain: server.url,
      ...(websocket ? {} : { mode: "webhook", verificationToken }),
      ...(!websocket && options.encryptKey ? { encryptKey: options.encryptKey } : {}),
      ...extra,
    }),
    addUser: (name, openId) => state.addUser(name, openId),
    addChat: (chat) =>
      state.addChat({
        name: chat.name,
        chat_mode: chat.mode ?? "group",
        members: chat.members.map((m) => m.open_id),
        ...(chat.botIn !== undefined ? { botIn: chat.botIn } : {}),
      }),
    async userSends(input) {
      const { msgType, content, mentions } = messageContent(input, bot, state.tenantKey);
      const message = state.postMessage({
        chatId: input.chatId,
        sender: { id: input.from.open_id, id_type: "open_id", sender_type: "user", tenant_key: state.tenantKey },
        msgType,
        content,
        ...(input.replyTo ? { parentId: input.replyTo, inThread: input.inThread === true } : {}),
        mentions,
      });
      await im.userSends(message, input.from);
      return message;
    },
    async userReacts(messageId, user, emojiType) {
      state.addReaction(messageId, { operator_id: user.open_id, operator_type: "user" }, emojiType);
      await im.reactionChanged("created", messageId, emojiType, { user });
    },
    async userUnreacts(messageId, user, emojiType) {
      const gone = (state.reactions.get(messageId) ?? []).find(
        (r) => r.operator.operator_id === user.open_id && r.reaction_type.emoji_type === emojiType,
      );
      if (!gone) return;
      state.removeReaction(messageId, gone.reaction_id);
      await im.reactionChanged("deleted", messageId, emojiType, { user });
    },
    recall(messageId) {
      const message = state.messages.get(messageId);
      if (message) Object.assign(message, { deleted: true, body: { content: '{"text":"This message was recalled"}' } });
    },
    async redeliverLast() {
      if (last === undefined) throw new Error("fake Feishu: nothing delivered yet");
      await deliver(last);
    },
    async deliverUnparseable() {
      // Feishu's shape with the wrong types: a numeric message id, content that is not JSON, no sender id.
      await deliver(
        events.envelope("im.message.receive_v1", {
          sender: { sender_type: "user" },
          message: { message_id: 42, chat_id: "oc_broken", chat_type: "group", message_type: "text", content: "{" },
        }),
      );
    },
    async forge(text, to) {
      const chat = [...state.chats.values()][0];
      const mallory = state.addUser("Mallory");
      const message = state.postMessage({
        chatId: chat?.chat_id ?? "oc_unknown",
        sender: { id: mallory.open_id, id_type: "open_id", sender_type: "user" },
        msgType: "text",
        content: JSON.stringify({ text }),
      });
      const envelope = events.messageReceived(message, mallory);
      // With an Encrypt Key, a forger cannot sign; without one, a forger does not know the token.
      if (options.encryptKey === undefined) envelope.header.token = `not-${verificationToken}`;
      const forged = options.encryptKey === undefined ? {} : { encryptKey: `not-${options.encryptKey}` };
      return (await webhooks.post(JSON.stringify(envelope), { ...forged, ...(to ? { to } : {}) })).status;
    },
    fault(kind) {
      server.inject(outage(kind));
      longConnection.fault(kind);
    },
    heal() {
      server.clearFaults();
      longConnection.heal();
    },
    async settled() {
      await inFlight;
      await webhooks.settled();
    },
    botReactions: (messageId) => state.reactionsBy(messageId, appId),
    reactionsBy: (messageId, openId) => state.reactionsBy(messageId, openId),
    messagesIn: (chatId) => [...state.messages.values()].filter((m) => m.chat_id === chatId),
    textOf: (message) => textOf(message),
  };
}

/** The text of a stored message: a text message's text, or the text and `md` elements of a post. */
function textOf(message: FakeMessage): string {
  const body = JSON.parse(message.body.content) as Record<string, unknown>;
  if (typeof body.text === "string") return body.text;
  const post = Object.values(body)[0] as { content?: { tag: string; text?: string }[][] } | undefined;
  return (post?.content ?? []).map((line) => line.map((e) => e.text ?? "").join("")).join("\n");
}
