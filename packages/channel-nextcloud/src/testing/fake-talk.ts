import {
  createFakeServer,
  type FakeResponse,
  type FakeServer,
  json,
  outage,
  type PlatformFault,
  type RequestContext,
} from "@chorus/testkit";
import { BOT_API_PATH, signedPart } from "../client.js";
import { signatureMatches } from "../signing.js";
import type { TalkCreate, TalkLike, TalkMembership, TalkUndo } from "../wire.js";
import { type DeliverOptions, type Delivery, HookSender } from "./fake-delivery.js";
import { createHook, likeHook, membershipHook, undoHook, unreadableHook } from "./fake-hooks.js";
import { type FakeBot, type FakeMessage, type FakeRoom, FakeTalkState, type FakeUser } from "./fake-state.js";

export interface FakeTalkOptions {
  /** Talk's `max-length` of a chat message; default 32000. */
  maxTextLength?: number;
}

/** What a person writes. */
export interface UserMessageInput {
  token: string;
  user: FakeUser;
  /** Text with `{placeholders}` for `parameters`. */
  message: string;
  parameters?: Record<string, unknown>;
  replyTo?: number;
}

/** A stateful fake Nextcloud Talk on 127.0.0.1: the bot OCS API, plus webhooks signed and encoded as Talk does. */
export interface FakeTalk {
  readonly server: FakeServer;
  readonly state: FakeTalkState;
  readonly url: string;
  /** Every webhook posted, with the exact bytes of its body. */
  readonly deliveries: readonly Delivery[];
  start(): Promise<string>;
  close(): Promise<void>;
  /** `occ talk:bot:install <name> <secret> <url> --feature …`. */
  installBot(input: { name: string; secret: string; url: string; features?: string[] }): FakeBot;
  /** Creates a group conversation, or a one-to-one (named by its sorted user ids) with `users`. */
  addRoom(input: { token: string; name?: string; type?: "group" | "one2one"; users?: string[] }): FakeRoom;
  /** `occ talk:bot:setup <bot-id> <token>`: enables the bot in a conversation. */
  setupBot(bot: FakeBot, token: string): void;
  /** The `channels.nextcloud` block for a bot. */
  config(bot: FakeBot, extra?: Record<string, unknown>): Record<string, unknown>;
  /** Someone writes; returns the `Create` hook Talk would send (not yet delivered). */
  userSends(input: UserMessageInput): TalkCreate & { object: { id: string } };
  /** Someone reacts; returns the `Like` hook. */
  userReacts(messageId: number, user: FakeUser, emoji: string): TalkLike;
  /** Someone takes a reaction back; returns the `Undo` hook. */
  userUnreacts(messageId: number, user: FakeUser, emoji: string): TalkUndo;
  /** The `Join`/`Leave` hook for a bot and a conversation. */
  membershipEvent(type: "Join" | "Leave", bot: FakeBot, token: string): TalkMembership;
  /** A hook in a conversation that the plugin cannot read (see `unreadableHook`). */
  unreadableEvent(token: string, user: FakeUser): object;
  /**
   * Posts `body` to `url` as Talk does: PHP-encoded (a string is sent as it is), signed over
   * random + body with the bot's secret; resolves with the answer.
   */
  deliver(url: string, bot: FakeBot, body: object | string, options?: DeliverOptions): Promise<Response>;
  /** The last genuine delivery again, as Talk would fire it again: same body, a fresh random. */
  redeliverLast(url?: string): Promise<Response>;
  /** The last delivery posted again with its random and signature: a captured request replayed. */
  replayLast(): Promise<Response>;
  /** Delivers a hook to every bot enabled in `token` with the feature it needs, at its URL. */
  dispatch(token: string, body: object): Promise<number[]>;
  /** From now on every bot API request misbehaves like `kind` (refuse, close, hang, garbage), until `heal()`. */
  outage(kind: PlatformFault): void;
  heal(): void;
  /** A bot's reactions on a message, as Talk stores them. */
  botReactions(messageId: number, bot: FakeBot): string[];
  reactionsBy(messageId: number, actorId: string): string[];
  messagesIn(token: string): FakeMessage[];
}

type Ctx = RequestContext<undefined>;

/** The OCS JSON envelope Talk answers bots with. */
function ocs(status: number, data: unknown = null): FakeResponse {
  const ok = status < 300;
  return json(status, { ocs: { meta: { status: ok ? "ok" : "failure", statuscode: status, message: "" }, data } });
}

/** One user-perceived character that is an emoji: what Talk accepts as a reaction. */
function isSingleEmoji(text: string): boolean {
  const graphemes = [...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text)];
  return graphemes.length === 1 && /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3/u.test(text);
}

/** Creates (not yet started) a fake Nextcloud Talk server. */
export function createFakeTalk(options: FakeTalkOptions = {}): FakeTalk {
  const maxTextLength = options.maxTextLength ?? 32_000;
  const state = new FakeTalkState();
  const server = createFakeServer();
  const sender = new HookSender(() => server.url);

  /** `BotController::getBotFromHeaders`: 400 for a missing/short random or signature, 401 when no bot matches. */
  const botFromHeaders = (ctx: Ctx, token: string, signed: string): FakeBot | number => {
    const random = ctx.headers["x-nextcloud-talk-bot-random"];
    if (typeof random !== "string" || random.length < 32) return 400;
    const signature = ctx.headers["x-nextcloud-talk-bot-signature"];
    if (typeof signature !== "string" || signature === "") return 400;
    // Only bots enabled here with the `response` feature are tried, as Talk's getBotsForToken does.
    for (const bot of state.botsIn(token, "response")) {
      if (signatureMatches(bot.secret, random, signed, signature)) return bot;
    }
    return 401;
  };
  const bodyOf = (ctx: Ctx) => {
    try {
      return ctx.json<Record<string, unknown>>() ?? {};
    } catch {
      return {};
    }
  };
  const guarded = (handler: (ctx: Ctx) => FakeResponse) => (ctx: Ctx) =>
    ctx.headers["ocs-apirequest"] === "true" ? handler(ctx) : json(412, { message: "CSRF check failed" });

  // Every Nextcloud answers its status page without authentication (what `probe` reads).
  server.route("GET", "/status.php", () =>
    json(200, {
      installed: true,
      maintenance: false,
      needsDbUpgrade: false,
      version: "31.0.4.1",
      versionstring: "31.0.4",
      edition: "",
      productname: "Nextcloud",
      extendedSupport: false,
    }),
  );

  server.route(
    "POST",
    `${BOT_API_PATH}/:token/message`,
    guarded((ctx) => {
      const token = ctx.params.token ?? "";
      const body = bodyOf(ctx);
      const message = typeof body.message === "string" ? body.message : "";
      if (message.trim() === "") return ocs(400);
      const bot = botFromHeaders(ctx, token, signedPart(body));
      if (typeof bot === "number") return ocs(bot);
      if (!state.rooms.has(token)) return ocs(404);
      const replyTo = typeof body.replyTo === "number" ? body.replyTo : 0;
      if (replyTo !== 0 && state.messages.get(replyTo)?.token !== token) return ocs(400);
      if (message.length > maxTextLength) return ocs(413);
      state.postMessage({
        token,
        actorId: bot.actorId,
        actorName: bot.name,
        message,
        parameters: {},
        ...(replyTo !== 0 ? { replyTo } : {}),
        ...(typeof body.referenceId === "string" ? { referenceId: body.referenceId } : {}),
        ...(body.silent === true ? { silent: true } : {}),
      });
      return ocs(201);
    }),
  );

  const reaction = (remove: boolean) =>
    guarded((ctx) => {
      const token = ctx.params.token ?? "";
      const body = bodyOf(ctx);
      const emoji = typeof body.reaction === "string" ? body.reaction : "";
      const bot = botFromHeaders(ctx, token, signedPart(body));
      if (typeof bot === "number") return ocs(bot);
      const message = state.messages.get(Number(ctx.params.messageId));
      if (!message || message.token !== token) return ocs(404);
      if (!isSingleEmoji(emoji)) return ocs(remove ? 404 : 400);
      if (remove) return ocs(state.removeReaction(message.id, bot.actorId, emoji) ? 200 : 404);
      return ocs(state.addReaction(message.id, bot.actorId, emoji) ? 201 : 200);
    });
  server.route("POST", `${BOT_API_PATH}/:token/reaction/:messageId`, reaction(false));
  server.route("DELETE", `${BOT_API_PATH}/:token/reaction/:messageId`, reaction(true));

  const roomOrThrow = (token: string) => {
    const room = state.rooms.get(token);
    if (!room) throw new Error(`fake Talk: no conversation ${token}`);
    return room;
  };
  const messageOrThrow = (id: number) => {
    const message = state.messages.get(id);
    if (!message) throw new Error(`fake Talk: no message ${id}`);
    return message;
  };

  return {
    server,
    state,
    get url() {
      return server.url;
    },
    deliveries: sender.deliveries,
    start: () => server.start(),
    close: () => server.close(),
    installBot: (input) => state.installBot(input),
    addRoom: ({ token, name, type = "group", users = [] }) => {
      const room: FakeRoom = {
        token,
        type,
        name: type === "one2one" ? JSON.stringify([...users].sort()) : (name ?? token),
        bots: [],
      };
      state.rooms.set(token, room);
      return room;
    },
    setupBot: (bot, token) => {
      const room = roomOrThrow(token);
      if (!room.bots.includes(bot.id)) room.bots.push(bot.id);
    },
    config: (bot, extra = {}) => ({ baseUrl: server.url, secret: bot.secret, botName: bot.name, ...extra }),
    userSends: (input) => {
      const room = roomOrThrow(input.token);
      const parent = input.replyTo === undefined ? undefined : messageOrThrow(input.replyTo);
      state.users.set(input.user.id, input.user);
      const message = state.postMessage({
        token: input.token,
        actorId: `users/${input.user.id}`,
        actorName: input.user.name,
        message: input.message,
        parameters: input.parameters ?? {},
        ...(parent ? { replyTo: parent.id } : {}),
      });
      return createHook(room, input.user, message, parent);
    },
    userReacts: (messageId, user, emoji) => {
      const message = messageOrThrow(messageId);
      state.addReaction(messageId, `users/${user.id}`, emoji);
      return likeHook(roomOrThrow(message.token), user, message, emoji);
    },
    userUnreacts: (messageId, user, emoji) => {
      const message = messageOrThrow(messageId);
      state.removeReaction(messageId, `users/${user.id}`, emoji);
      return undoHook(roomOrThrow(message.token), user, message, emoji);
    },
    membershipEvent: (type, bot, token) => membershipHook(type, bot, roomOrThrow(token)),
    unreadableEvent: (token, user) => unreadableHook(roomOrThrow(token), user),
    deliver: (url, bot, body, deliverOptions) => sender.deliver(url, bot, body, deliverOptions),
    redeliverLast: (url) => sender.redeliverLast(url),
    replayLast: () => sender.replayLast(),
    dispatch: async (token, body) => {
      const type = (body as { type?: unknown }).type;
      const feature = type === "Like" || type === "Undo" ? "reaction" : "webhook";
      const answers = await Promise.all(state.botsIn(token, feature).map((bot) => sender.deliver(bot.url, bot, body)));
      return answers.map((answer) => answer.status);
    },
    outage: (kind) => server.inject(outage(kind)),
    heal: () => server.clearFaults(),
    botReactions: (messageId, bot) => state.reactionsBy(messageId, bot.actorId),
    reactionsBy: (messageId, actorId) => state.reactionsBy(messageId, actorId),
    messagesIn: (token) => [...state.messages.values()].filter((m) => m.token === token),
  };
}
