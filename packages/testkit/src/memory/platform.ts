import { anySignal } from "@chorus/channel-kit";
import { stripVariationSelectors } from "@chorus/core";
import { createFakeServer, type FakeServer, json, type RequestContext } from "../fake-server/index.js";
import {
  type MemoryMessageMedia,
  mediaOfMessage,
  postUserMedium,
  readOutgoingMedia,
  routeMedia,
  type UserMediumInput,
} from "./platform-media.js";
import { MemoryPlatformState } from "./platform-state.js";
import { DEFAULT_PLATFORM_RULES, type MemoryPlatformRules } from "./rules.js";
import type { MemoryChatKind, WireError, WireMessage, WireReactionSummary, WireUser } from "./wire.js";

export interface MemoryPlatformOptions {
  /** The bot's bearer token; requests without it answer 401. */
  token?: string;
  bot?: WireUser;
  rules?: Partial<MemoryPlatformRules>;
}

/** A person (or the test) acting on the platform, as opposed to the bot over HTTP. */
export interface UserMessageInput {
  conversationId: string;
  senderId: string;
  text: string;
  mentions?: string[];
  replyToId?: string;
  threadId?: string;
}

/** A fake chat platform on 127.0.0.1 with an HTTP API, used by the in-memory channel. */
export interface MemoryPlatform {
  readonly server: FakeServer;
  readonly state: MemoryPlatformState;
  readonly token: string;
  readonly bot: WireUser;
  readonly url: string;
  start(): Promise<void>;
  close(): Promise<void>;
  addConversation(input: { id: string; kind: MemoryChatKind; title?: string; members: WireUser[] }): void;
  userSends(input: UserMessageInput): WireMessage;
  userReacts(messageId: string, userId: string, emoji: string): void;
  userUnreacts(messageId: string, userId: string, emoji: string): void;
  /** The bot's reactions on a message, in platform form. */
  botReactions(messageId: string): string[];
  /** Messages of a conversation, oldest first. */
  messagesIn(conversationId: string): WireMessage[];
  /** Delivers an earlier event (the last by default) again, with its id, as platforms redeliver. */
  redeliver(id?: string): void;
  /** Delivers a raw value where an event belongs: a payload the plugin cannot parse. */
  deliverRaw(value: Record<string, unknown>): void;
  /** Someone sends a medium, a location or a contact card; the bot receives it with its events. */
  userSendsMedium(input: UserMediumInput): WireMessage;
  /** A message's media, location and text as the platform holds them. */
  messageMedia(messageId: string): MemoryMessageMedia;
  /** The bot's messages in a conversation, oldest first. */
  botMessagesIn(conversationId: string): WireMessage[];
  /** Bytes the platform has served for media downloads (`GET /v1/media/:id`) so far. */
  readonly bytesServed: number;
}

type Ctx = RequestContext<unknown>;

/** Creates (not yet started) a memory platform with the given reaction rules. */
export function createMemoryPlatform(options: MemoryPlatformOptions = {}): MemoryPlatform {
  const token = options.token ?? "memory-token";
  const bot = options.bot ?? { id: "bot", name: "Chorus", bot: true };
  const rules = { ...DEFAULT_PLATFORM_RULES, ...options.rules };
  const state = new MemoryPlatformState(rules, bot);
  // Room for the largest upload, so the platform's own 413 `too_large` answers what is over it.
  const server = createFakeServer({ maxBodyBytes: Math.max(10 * 1024 * 1024, rules.maxUploadBytes + 64 * 1024) });
  const closing = new AbortController();

  const fail = (status: number, error: WireError["error"], message: string) => json(status, { error, message });
  const authorized = (ctx: Ctx) => ctx.headers.authorization === `Bearer ${token}`;
  const guard = (handler: (ctx: Ctx) => ReturnType<typeof json> | Promise<ReturnType<typeof json>>) => (ctx: Ctx) =>
    authorized(ctx) ? handler(ctx) : fail(401, "unauthorized", "missing or wrong bearer token");
  const messageOf = (ctx: Ctx) => state.messages.get(ctx.params.id ?? "");
  const platformEmoji = (raw: string) => stripVariationSelectors(raw);
  const allowed = (emoji: string) => !rules.vocabulary || rules.vocabulary.some((v) => platformEmoji(v) === emoji);

  server.route(
    "GET",
    "/v1/me",
    guard(() => json(200, bot)),
  );

  server.route(
    "GET",
    "/v1/conversations/:id",
    guard((ctx) => {
      const conversation = state.conversations.get(ctx.params.id ?? "");
      return conversation ? json(200, conversation) : fail(404, "conversation_not_found", "no such conversation");
    }),
  );

  server.route(
    "POST",
    "/v1/conversations/:id/messages",
    guard((ctx) => {
      const id = ctx.params.id ?? "";
      if (!state.conversations.has(id)) return fail(404, "conversation_not_found", `no conversation ${id}`);
      const body = ctx.json<{
        text?: unknown;
        replyToId?: unknown;
        threadId?: unknown;
        mentions?: unknown;
        media?: unknown;
        location?: unknown;
      }>();
      const attached = readOutgoingMedia(body, state.media, rules);
      if ("refused" in attached) return fail(...attached.refused);
      const bare = !attached.media && !attached.location;
      if (typeof body.text !== "string" || (bare && body.text === ""))
        return fail(400, "bad_request", "text must be a string, not empty without media or a location");
      if (body.text.length > rules.maxTextLength) {
        return fail(400, "text_too_long", `text is longer than ${rules.maxTextLength} characters`);
      }
      if (body.replyToId !== undefined && !state.messages.has(String(body.replyToId))) {
        return fail(404, "message_not_found", "replyToId does not exist");
      }
      const message = state.postMessage({
        conversationId: id,
        senderId: bot.id,
        text: body.text,
        mentions: Array.isArray(body.mentions) ? body.mentions.map(String) : [],
        ...(typeof body.replyToId === "string" ? { replyToId: body.replyToId } : {}),
        ...(typeof body.threadId === "string" ? { threadId: body.threadId } : {}),
        ...attached,
      });
      return json(200, message);
    }),
  );

  server.route(
    "POST",
    "/v1/conversations/:id/typing",
    guard((ctx) => {
      state.typing.set(ctx.params.id ?? "", ctx.json<{ on?: unknown }>().on === true);
      return json(200, { ok: true });
    }),
  );

  server.route(
    "GET",
    "/v1/messages/:id",
    guard((ctx) => {
      const message = messageOf(ctx);
      return message ? json(200, message) : fail(404, "message_not_found", "no such message");
    }),
  );

  server.route(
    "GET",
    "/v1/messages/:id/reactions",
    guard((ctx) => {
      const message = messageOf(ctx);
      if (!message) return fail(404, "message_not_found", "no such message");
      if (!rules.list) return fail(405, "listing_not_allowed", "reactions cannot be listed on this platform");
      const summary = new Map<string, string[]>();
      for (const r of state.reactions.get(message.id) ?? [])
        summary.set(r.emoji, [...(summary.get(r.emoji) ?? []), r.userId]);
      const body: WireReactionSummary[] = [...summary].map(([emoji, users]) => ({ emoji, users }));
      return json(200, body);
    }),
  );

  server.route(
    "PUT",
    "/v1/messages/:id/reactions/:emoji",
    guard((ctx) => {
      const message = messageOf(ctx);
      if (!message) return fail(404, "message_not_found", "no such message");
      const emoji = platformEmoji(ctx.params.emoji ?? "");
      if (emoji === "" || !allowed(emoji)) return fail(400, "invalid_reaction", `${emoji} is not an allowed reaction`);
      if (!state.addReaction(message.id, bot.id, emoji)) return fail(409, "already_reacted", "you already reacted so");
      return json(200, { reactions: state.reactionsBy(message.id, bot.id) });
    }),
  );

  server.route(
    "DELETE",
    "/v1/messages/:id/reactions/:emoji",
    guard((ctx) => {
      const message = messageOf(ctx);
      if (!message) return fail(404, "message_not_found", "no such message");
      if (rules.addOnly) return fail(405, "removal_not_allowed", "reactions cannot be removed on this platform");
      const emoji = platformEmoji(ctx.params.emoji ?? "");
      if (!state.removeReaction(message.id, bot.id, emoji)) return fail(404, "no_reaction", "you did not react so");
      return json(200, { reactions: state.reactionsBy(message.id, bot.id) });
    }),
  );

  server.route(
    "DELETE",
    "/v1/messages/:id/reactions",
    guard((ctx) => {
      const message = messageOf(ctx);
      if (!message) return fail(404, "message_not_found", "no such message");
      if (rules.addOnly) return fail(405, "removal_not_allowed", "reactions cannot be removed on this platform");
      const removed = state.reactionsBy(message.id, bot.id);
      for (const emoji of removed) state.removeReaction(message.id, bot.id, emoji);
      return json(200, { removed });
    }),
  );

  server.route(
    "GET",
    "/v1/events",
    guard(async (ctx) => {
      const after = Number(ctx.query.get("after") ?? "0");
      const waitMs = Math.min(Number(ctx.query.get("waitMs") ?? "0"), 60_000);
      if (!Number.isFinite(after) || !Number.isFinite(waitMs))
        return fail(400, "bad_request", "after and waitMs are numbers");
      const gone = new AbortController();
      ctx.request.once("close", () => gone.abort());
      await state.waitForEvents(after, waitMs, anySignal([gone.signal, closing.signal]));
      return json(200, { events: state.eventsAfter(after) });
    }),
  );

  routeMedia(server, state.media, rules, guard, fail);

  return {
    server,
    state,
    token,
    bot,
    get url() {
      return server.url;
    },
    start: async () => {
      await server.start();
    },
    close: async () => {
      closing.abort();
      state.wakeAll();
      await server.close();
    },
    addConversation: (input) => {
      state.addConversation(input);
    },
    userSends: (input) =>
      state.postMessage({
        conversationId: input.conversationId,
        senderId: input.senderId,
        text: input.text,
        mentions: input.mentions ?? [],
        ...(input.replyToId !== undefined ? { replyToId: input.replyToId } : {}),
        ...(input.threadId !== undefined ? { threadId: input.threadId } : {}),
      }),
    userReacts: (messageId, userId, emoji) => {
      state.addReaction(messageId, userId, platformEmoji(emoji));
    },
    userUnreacts: (messageId, userId, emoji) => {
      state.removeReaction(messageId, userId, platformEmoji(emoji));
    },
    botReactions: (messageId) => state.reactionsBy(messageId, bot.id),
    messagesIn: (conversationId) => [...state.messages.values()].filter((m) => m.conversationId === conversationId),
    redeliver: (id) => state.redeliver(id),
    deliverRaw: (value) => state.pushRaw(value),
    userSendsMedium: (input) => postUserMedium(state, input),
    messageMedia: (messageId) => mediaOfMessage(state, messageId),
    botMessagesIn: (conversationId) =>
      [...state.messages.values()].filter((m) => m.conversationId === conversationId && m.senderId === bot.id),
    get bytesServed() {
      return state.media.bytesServed;
    },
  };
}
