import { randomBytes } from "node:crypto";
import {
  createFakeServer,
  empty,
  type FakeResponse,
  type FakeServer,
  json,
  outage,
  type PlatformFault,
  type PlatformMessageMedia,
  type RequestContext,
} from "@chorus/testkit";
import type { AcmeConversation, AcmeFile, AcmeLocation, AcmeMessage, AcmeUser } from "../wire.js";
import { ACME_UPLOAD_LIMIT, BOT_FILE_KINDS, FakeAcmeFiles } from "./fake-files.js";
import { ACME_REACTION_NAMES, FakeAcmeState, type NewMessage, readLocation } from "./fake-state.js";
import { FakeAcmeWebhooks } from "./fake-webhooks.js";

export interface FakeAcmeOptions {
  /** The bot's bearer token; requests without it answer 401. */
  token?: string;
  /** The secret deliveries are signed with. */
  webhookSecret?: string;
  bot?: AcmeUser;
  /** Acme's waits before posting again a delivery the bot did not answer 2xx (see `ACME_RETRY_DELAYS_MS`); short in tests. */
  retryDelaysMs?: readonly number[];
}

/** A person writing on Acme (not the bot over HTTP). */
export interface UserMessageInput extends Omit<NewMessage, "author" | "file"> {
  /** The author, or the id of a known user. */
  author: AcmeUser | string;
  /** A file the person sends with the message (`text` is its caption). */
  file?: { kind: AcmeFile["kind"]; name: string; mimeType: string; bytes: Uint8Array };
  location?: AcmeLocation;
}

/** A stateful fake Acme Chat on 127.0.0.1: the REST API the bot calls, and the webhooks Acme delivers. */
export interface FakeAcme {
  readonly server: FakeServer;
  readonly state: FakeAcmeState;
  readonly webhooks: FakeAcmeWebhooks;
  /** Every file's bytes, and what downloads served. */
  readonly files: FakeAcmeFiles;
  readonly url: string;
  readonly token: string;
  readonly webhookSecret: string;
  readonly bot: AcmeUser;
  start(): Promise<string>;
  close(): Promise<void>;
  /** The `channels.acme` block that points the plugin at this fake. */
  config(extra?: Record<string, unknown>): Record<string, unknown>;
  addConversation(conversation: AcmeConversation): void;
  /** Someone writes a message; resolves once the bot answered Acme's first attempt to deliver it. */
  userSends(input: UserMessageInput): Promise<AcmeMessage>;
  /** Someone reacts with one of Acme's names; resolves once delivered. */
  userReacts(messageId: string, userId: string, name: string): Promise<void>;
  userUnreacts(messageId: string, userId: string, name: string): Promise<void>;
  /** Delivers the last event again (same delivery id); resolves with the bot's answer. */
  redeliverLast(): Promise<number>;
  /** A correctly signed `message.created` whose message is not what Acme documents. */
  deliverUnparseable(): Promise<number>;
  /** A `message.created` carrying `text`, signed with a secret that is not Acme's. */
  forge(text: string): Promise<number>;
  /** Every request misbehaves like `kind` (the contract's outages) until `heal()`. */
  fault(kind: PlatformFault): void;
  heal(): void;
  /** The bot's reactions on a message, as Acme holds them (names). */
  botReactions(messageId: string): string[];
  reactionsBy(messageId: string, userId: string): string[];
  messagesIn(conversationId: string): AcmeMessage[];
  isTyping(conversationId: string): boolean;
  /** A message's file (with its bytes), pin and text, in the contract suite's words. */
  messageMedia(messageId: string): PlatformMessageMedia;
}

/** Longest text Acme accepts in one message. */
const MAX_TEXT_LENGTH = 4000;

/** Creates (not yet started) a fake Acme Chat. */
export function createFakeAcme(options: FakeAcmeOptions = {}): FakeAcme {
  const token = options.token ?? "acme-bot-token";
  const webhookSecret = options.webhookSecret ?? `whsec_${randomBytes(16).toString("hex")}`;
  const bot = options.bot ?? { id: "u_bot", name: "Chorus", bot: true };
  const state = new FakeAcmeState(bot);
  const webhooks = new FakeAcmeWebhooks(webhookSecret, options.retryDelaysMs);
  const server = createFakeServer();
  const sentByKey = new Map<string, AcmeMessage>();
  const files = new FakeAcmeFiles();

  type Ctx = RequestContext<undefined>;
  const fail = (status: number, error: string, message: string) => json(status, { error, message });
  const route = (method: string, path: string, handler: (ctx: Ctx) => FakeResponse | Promise<FakeResponse>) =>
    server.route(method, path, (ctx: Ctx) =>
      ctx.headers.authorization === `Bearer ${token}` ? handler(ctx) : fail(401, "unauthorized", "bad bearer token"),
    );
  const withMessage = (handler: (ctx: Ctx, message: AcmeMessage) => FakeResponse) => (ctx: Ctx) => {
    const message = state.messages.get(ctx.params.id ?? "");
    return message ? handler(ctx, message) : fail(404, "message_not_found", `no message ${ctx.params.id}`);
  };
  // Acme tells the bot's webhook about everything, the bot's own messages and reactions included.
  const messageCreated = (message: AcmeMessage) =>
    webhooks.deliver("message.created", { conversation: state.conversationOf(message), message });
  const reactionChanged = (type: string, message: AcmeMessage, userId: string, reaction: string) =>
    webhooks.deliver(type, {
      conversation: state.conversationOf(message),
      message: { id: message.id, author_id: message.author.id },
      user: state.user(userId),
      reaction,
    });

  route("GET", "/v1/me", () => json(200, bot));

  route("PUT", "/v1/webhook", (ctx) => {
    const { url } = ctx.json<{ url?: unknown }>();
    if (typeof url !== "string" || !/^https?:\/\//.test(url)) return fail(400, "bad_request", "url must be http(s)");
    webhooks.url = url;
    return empty();
  });

  route("POST", "/v1/conversations/:id/messages", (ctx) => {
    // One message per idempotency key: a retried POST gets the first answer again.
    const key = ctx.headers["idempotency-key"];
    const earlier = typeof key === "string" ? sentByKey.get(key) : undefined;
    if (earlier) return json(200, earlier);
    const conversationId = ctx.params.id ?? "";
    if (!state.conversations.has(conversationId)) return fail(404, "conversation_not_found", "no such conversation");
    const body = ctx.json<{ text?: unknown; reply_to?: unknown; mentions?: unknown; location?: unknown }>();
    const location = readLocation(body.location);
    if (location === null) return fail(400, "bad_request", "location needs numbers lat and lng");
    if (typeof body.text !== "string" || (body.text.trim() === "" && !location))
      return fail(400, "bad_request", "text is required");
    if (body.text.length > MAX_TEXT_LENGTH) return fail(400, "text_too_long", `text exceeds ${MAX_TEXT_LENGTH}`);
    const replyTo = typeof body.reply_to === "string" ? body.reply_to : undefined;
    if (replyTo !== undefined && state.messages.get(replyTo)?.conversation_id !== conversationId) {
      return fail(404, "message_not_found", `no message ${replyTo} to reply to`);
    }
    const mentions = Array.isArray(body.mentions) ? body.mentions.map(String) : [];
    const message = state.postMessage({ conversationId, author: bot, text: body.text, mentions, replyTo, location });
    if (typeof key === "string") sentByKey.set(key, message);
    void messageCreated(message);
    return json(201, message);
  });

  // One file and its caption as a message: multipart `file`, `kind` and `text`.
  route("POST", "/v1/conversations/:id/files", async (ctx) => {
    const conversationId = ctx.params.id ?? "";
    if (!state.conversations.has(conversationId)) return fail(404, "conversation_not_found", "no such conversation");
    const form = await new Response(ctx.rawBody, { headers: { "content-type": String(ctx.headers["content-type"]) } })
      .formData()
      .catch(() => undefined);
    const file = form?.get("file");
    const kind = String(form?.get("kind") ?? "file");
    if (!form || typeof file === "string" || !file)
      return fail(400, "bad_request", "a multipart field file is required");
    if (!BOT_FILE_KINDS.includes(kind)) return fail(400, "unsupported_kind", `bots send ${BOT_FILE_KINDS.join(", ")}`);
    if (file.size > ACME_UPLOAD_LIMIT)
      return fail(413, "file_too_large", `files are limited to ${ACME_UPLOAD_LIMIT} bytes`);
    const bytes = new Uint8Array(await file.arrayBuffer());
    const stored = files.add(
      { kind: kind as AcmeFile["kind"], name: file.name, mimeType: file.type, bytes },
      server.url,
    );
    const text = String(form.get("text") ?? "");
    const message = state.postMessage({ conversationId, author: bot, text, file: stored });
    void messageCreated(message);
    return json(201, message);
  });

  route(
    "GET",
    "/v1/files/:id",
    (ctx) => files.serve(ctx.params.id ?? "") ?? fail(404, "file_not_found", "no such file"),
  );

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

  // The closed set is enforced here too: a plugin that sends an emoji or a shortcode is caught.
  route(
    "PUT",
    "/v1/messages/:id/reactions/:name",
    withMessage((ctx, message) => {
      const name = ctx.params.name ?? "";
      if (!ACME_REACTION_NAMES.includes(name)) return fail(400, "unknown_reaction", `${name} is not an Acme reaction`);
      if (!state.addReaction(message.id, bot.id, name)) return fail(409, "already_reacted", "you already reacted so");
      void reactionChanged("reaction.added", message, bot.id, name);
      return empty();
    }),
  );

  route(
    "DELETE",
    "/v1/messages/:id/reactions/:name",
    withMessage((ctx, message) => {
      const name = ctx.params.name ?? "";
      if (!state.removeReaction(message.id, bot.id, name)) return fail(404, "reaction_not_found", "no such reaction");
      void reactionChanged("reaction.removed", message, bot.id, name);
      return empty();
    }),
  );
  // Deliberately absent, as on Acme: listing who reacted, and clearing the caller's reactions.

  const messageOf = (id: string) => {
    const message = state.messages.get(id);
    if (!message) throw new Error(`fake Acme: no message ${id}`);
    return message;
  };
  const reactionName = (name: string) => {
    if (!ACME_REACTION_NAMES.includes(name)) throw new Error(`fake Acme: ${name} is not an Acme reaction`);
    return name;
  };
  const someone = (input: UserMessageInput) =>
    typeof input.author === "string" ? state.user(input.author) : input.author;
  const stored = (input: UserMessageInput) => (input.file ? files.add(input.file, server.url) : undefined);

  return {
    server,
    state,
    webhooks,
    files,
    token,
    webhookSecret,
    bot,
    get url() {
      return server.url;
    },
    start: () => server.start(),
    async close() {
      await webhooks.close();
      await server.close();
    },
    config: (extra = {}) => ({ baseUrl: server.url, token, webhookSecret, ...extra }),
    addConversation: (conversation) => state.addConversation(conversation),
    async userSends(input) {
      const message = state.postMessage({ ...input, author: someone(input), file: stored(input) });
      await messageCreated(message);
      return message;
    },
    async userReacts(messageId, userId, name) {
      if (state.addReaction(messageId, userId, reactionName(name))) {
        await reactionChanged("reaction.added", messageOf(messageId), userId, name);
      }
    },
    async userUnreacts(messageId, userId, name) {
      if (state.removeReaction(messageId, userId, reactionName(name))) {
        await reactionChanged("reaction.removed", messageOf(messageId), userId, name);
      }
    },
    redeliverLast: () => webhooks.redeliverLast(),
    deliverUnparseable: () =>
      // Acme's shape with the wrong types: a numeric message id and no author.
      webhooks.deliver("message.created", {
        conversation: { id: "c_broken", type: "group" },
        message: { id: 42, conversation_id: "c_broken", text: "?", created_at: new Date().toISOString() },
      }),
    forge(text) {
      const conversation = [...state.conversations.values()][0] ?? { id: "c_any", type: "group" };
      const message = {
        id: "msg_forged",
        conversation_id: conversation.id,
        author: { id: "u_mallory", name: "Mallory" },
        text,
        created_at: new Date().toISOString(),
      };
      const body = JSON.stringify(webhooks.envelope("message.created", { conversation, message }));
      return webhooks.post(body, { secret: `not-${webhookSecret}` });
    },
    fault: (kind) => server.inject(outage(kind)),
    heal: () => server.clearFaults(),
    botReactions: (messageId) => state.reactionsBy(messageId, bot.id),
    reactionsBy: (messageId, userId) => state.reactionsBy(messageId, userId),
    messagesIn: (conversationId) => [...state.messages.values()].filter((m) => m.conversation_id === conversationId),
    isTyping: (conversationId) => state.typing.get(conversationId) === true,
    messageMedia(messageId) {
      const { file, location, text } = messageOf(messageId);
      return {
        text,
        media: file
          ? [{ kind: file.kind, bytes: files.bytes(file.id) ?? new Uint8Array(), filename: file.name, caption: text }]
          : [],
        ...(location && { location: { latitude: location.lat, longitude: location.lng } }),
      };
    },
  };
}
