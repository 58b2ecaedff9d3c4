import { createHmac, randomBytes } from "node:crypto";
import {
  createFakeServer,
  empty,
  type FakeResponse,
  type FakeServer,
  json,
  type RequestContext,
} from "@chorus/testkit";
import type {
  AcmeConversation,
  AcmeMessage,
  AcmeMessageCreated,
  AcmeReactionChanged,
  AcmeUser,
  AcmeWebhookEvent,
} from "../wire.js";
import { FakeAcmeState, type NewMessage } from "./fake-state.js";

export interface FakeAcmeOptions {
  /** The bot's bearer token; requests without it answer 401. */
  token?: string;
  /** The secret webhooks are signed with. */
  webhookSecret?: string;
  bot?: AcmeUser;
  /** Longest text Acme accepts in one message. */
  maxTextLength?: number;
}

/** Overrides for `deliver`, to send what a forger or a replay would. */
export interface DeliverOptions {
  /** Sign with this secret instead of the fake's. */
  secret?: string;
  /** Send this `X-Acme-Timestamp` instead of the event's own. */
  timestamp?: string | number;
  /** Send this `X-Acme-Signature` verbatim. */
  signature?: string;
}

/** A person acting on Acme (not over HTTP): what a test says happened. */
export interface UserMessageInput extends Omit<NewMessage, "author"> {
  /** The author, or the id of a known user. */
  author: AcmeUser | string;
}

/** A stateful fake Acme Chat on 127.0.0.1: its REST API for the bot, plus signed webhooks. */
export interface FakeAcme {
  readonly server: FakeServer;
  readonly state: FakeAcmeState;
  readonly url: string;
  readonly token: string;
  readonly webhookSecret: string;
  readonly bot: AcmeUser;
  start(): Promise<string>;
  close(): Promise<void>;
  /** The `channels.acme` block that points the plugin at this fake. */
  config(extra?: Record<string, unknown>): Record<string, unknown>;
  addConversation(conversation: AcmeConversation): void;
  /** Someone writes a message; returns the `message.created` delivery for it (not yet delivered). */
  userSends(input: UserMessageInput): AcmeMessageCreated;
  /** Someone reacts; returns the `reaction.added` delivery. */
  userReacts(messageId: string, userId: string, emoji: string): AcmeReactionChanged;
  /** Someone takes a reaction back; returns the `reaction.removed` delivery. */
  userUnreacts(messageId: string, userId: string, emoji: string): AcmeReactionChanged;
  /** The `message.created` delivery of any stored message (the bot's own: an echo). */
  messageEvent(messageId: string): AcmeMessageCreated;
  /** Posts `event` to `url` signed like Acme does; resolves with the plugin's answer. */
  deliver(url: string, event: AcmeWebhookEvent, options?: DeliverOptions): Promise<Response>;
  /** The bot's reactions on a message, as Acme stores them. */
  botReactions(messageId: string): string[];
  reactionsBy(messageId: string, userId: string): string[];
  messagesIn(conversationId: string): AcmeMessage[];
  /** Whether the bot shows "typing…" in a conversation. */
  isTyping(conversationId: string): boolean;
}

/** Acme stores emoji without variation selectors, so `❤️` and `❤` are one reaction. */
const acmeEmoji = (raw: string) => raw.replace(/\uFE0F/gu, "");
/** Standard emoji only: a shortcode or a custom name sent as-is is a plugin bug the fake must catch. */
const isEmoji = (text: string) => /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3/u.test(text);

/** Creates (not yet started) a fake Acme Chat. */
export function createFakeAcme(options: FakeAcmeOptions = {}): FakeAcme {
  const token = options.token ?? "acme-bot-token";
  const webhookSecret = options.webhookSecret ?? `whsec_${randomBytes(16).toString("hex")}`;
  const bot = options.bot ?? { id: "u_bot", name: "Chorus", bot: true };
  const maxTextLength = options.maxTextLength ?? 4000;
  const state = new FakeAcmeState(bot);
  const server = createFakeServer();
  const sentByKey = new Map<string, AcmeMessage>();
  let deliveries = 0;

  type Ctx = RequestContext<undefined>;
  const fail = (status: number, error: string, message: string) => json(status, { error, message });
  const guarded = (handler: (ctx: Ctx) => FakeResponse) => (ctx: Ctx) =>
    ctx.headers.authorization === `Bearer ${token}` ? handler(ctx) : fail(401, "unauthorized", "bad bearer token");
  const route = (method: string, path: string, handler: (ctx: Ctx) => FakeResponse) =>
    server.route(method, path, guarded(handler));
  const withMessage = (handler: (ctx: Ctx, message: AcmeMessage) => FakeResponse) => (ctx: Ctx) => {
    const message = state.messages.get(ctx.params.id ?? "");
    return message ? handler(ctx, message) : fail(404, "message_not_found", `no message ${ctx.params.id}`);
  };

  route("GET", "/v1/me", () => json(200, bot));

  route("POST", "/v1/conversations/:id/messages", (ctx) => {
    const key = ctx.headers["idempotency-key"];
    const earlier = typeof key === "string" ? sentByKey.get(key) : undefined;
    if (earlier) return json(200, earlier);
    const conversationId = ctx.params.id ?? "";
    if (!state.conversations.has(conversationId)) return fail(404, "conversation_not_found", "no such conversation");
    const body = ctx.json<{ text?: unknown; reply_to?: unknown; mentions?: unknown }>();
    if (typeof body.text !== "string" || body.text.trim() === "") return fail(400, "bad_request", "text is required");
    if (body.text.length > maxTextLength) return fail(400, "text_too_long", `text exceeds ${maxTextLength}`);
    const replyTo = typeof body.reply_to === "string" ? body.reply_to : undefined;
    if (replyTo !== undefined && state.messages.get(replyTo)?.conversation_id !== conversationId) {
      return fail(404, "message_not_found", `no message ${replyTo} to reply to`);
    }
    const mentions = Array.isArray(body.mentions) ? body.mentions.map(String) : [];
    const message = state.postMessage({ conversationId, author: bot, text: body.text, mentions, replyTo });
    if (typeof key === "string") sentByKey.set(key, message);
    return json(201, message);
  });

  route("POST", "/v1/conversations/:id/typing", (ctx) => {
    if (!state.conversations.has(ctx.params.id ?? "")) return fail(404, "conversation_not_found", "no conversation");
    state.typing.set(ctx.params.id ?? "", ctx.json<{ on?: unknown }>().on === true);
    return empty();
  });

  route(
    "GET",
    "/v1/messages/:id",
    withMessage((_ctx, message) => json(200, message)),
  );

  route(
    "GET",
    "/v1/messages/:id/reactions",
    withMessage((_ctx, message) => json(200, { reactions: state.summary(message.id, bot.id) })),
  );

  route(
    "PUT",
    "/v1/messages/:id/reactions/:emoji",
    withMessage((ctx, message) => {
      const emoji = acmeEmoji(ctx.params.emoji ?? "");
      if (!isEmoji(emoji)) return fail(400, "unknown_emoji", `${emoji} is not an emoji`);
      if (!state.addReaction(message.id, bot.id, emoji)) return fail(409, "already_reacted", "you already reacted so");
      return empty();
    }),
  );

  route(
    "DELETE",
    "/v1/messages/:id/reactions/:emoji",
    withMessage((ctx, message) => {
      const emoji = acmeEmoji(ctx.params.emoji ?? "");
      if (!state.removeReaction(message.id, bot.id, emoji)) return fail(404, "reaction_not_found", "no such reaction");
      return empty();
    }),
  );

  // Registered after `:emoji`, so it wins for `@me` (the newest matching route answers).
  route(
    "DELETE",
    "/v1/messages/:id/reactions/@me",
    withMessage((_ctx, message) => {
      const removed = state.reactionsBy(message.id, bot.id);
      for (const emoji of removed) state.removeReaction(message.id, bot.id, emoji);
      return json(200, { removed });
    }),
  );

  const envelope = <E extends AcmeWebhookEvent>(type: E["type"], data: E["data"]) =>
    ({ id: `dlv_${++deliveries}`, type, timestamp: Math.floor(Date.now() / 1000), data }) as E;
  const messageEvent = (messageId: string): AcmeMessageCreated => {
    const message = state.messages.get(messageId);
    if (!message) throw new Error(`fake Acme: no message ${messageId}`);
    return envelope<AcmeMessageCreated>("message.created", { conversation: state.conversationOf(message), message });
  };
  const reactionEvent = (
    type: "reaction.added" | "reaction.removed",
    messageId: string,
    userId: string,
    emoji: string,
  ) => {
    const message = state.messages.get(messageId);
    if (!message) throw new Error(`fake Acme: no message ${messageId}`);
    const target = { id: message.id, author_id: message.author.id };
    return envelope<AcmeReactionChanged>(type, {
      conversation: state.conversationOf(message),
      message: target,
      user: state.user(userId),
      emoji,
    });
  };

  return {
    server,
    state,
    token,
    webhookSecret,
    bot,
    get url() {
      return server.url;
    },
    start: () => server.start(),
    close: () => server.close(),
    config: (extra = {}) => ({ baseUrl: server.url, token, webhookSecret, ...extra }),
    addConversation: (conversation) => {
      state.addConversation(conversation);
    },
    userSends: (input) => {
      const author = typeof input.author === "string" ? state.user(input.author) : input.author;
      return messageEvent(state.postMessage({ ...input, author }).id);
    },
    userReacts: (messageId, userId, emoji) => {
      const event = reactionEvent("reaction.added", messageId, userId, acmeEmoji(emoji));
      state.addReaction(messageId, userId, acmeEmoji(emoji));
      return event;
    },
    userUnreacts: (messageId, userId, emoji) => {
      const event = reactionEvent("reaction.removed", messageId, userId, acmeEmoji(emoji));
      state.removeReaction(messageId, userId, acmeEmoji(emoji));
      return event;
    },
    messageEvent,
    deliver: (url, event, deliverOptions = {}) => {
      const body = JSON.stringify(event);
      const signature = createHmac("sha256", deliverOptions.secret ?? webhookSecret)
        .update(body)
        .digest("hex");
      return fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-acme-timestamp": String(deliverOptions.timestamp ?? event.timestamp),
          "x-acme-signature": deliverOptions.signature ?? `sha256=${signature}`,
        },
        body,
      });
    },
    botReactions: (messageId) => state.reactionsBy(messageId, bot.id),
    reactionsBy: (messageId, userId) => state.reactionsBy(messageId, userId),
    messagesIn: (conversationId) => [...state.messages.values()].filter((m) => m.conversation_id === conversationId),
    isTyping: (conversationId) => state.typing.get(conversationId) === true,
  };
}
