import { createFakeServer, type FakeResponse, json, outage, type RequestContext } from "@chorus/testkit";
import { BOT_API_PATH, signedPart } from "../client.js";
import { signatureMatches } from "../signing.js";
import { type DavCounters, registerDav } from "./fake-dav.js";
import { HookSender } from "./fake-delivery.js";
import {
  actorParameter,
  createHook,
  fileParameter,
  geoParameter,
  likeHook,
  membershipHook,
  undoHook,
  unreadableHook,
} from "./fake-hooks.js";
import { registerShares } from "./fake-shares.js";
import { type FakeBot, type FakeRoom, FakeTalkState } from "./fake-state.js";
import type { FakeTalk, FakeTalkOptions } from "./fake-talk-types.js";

export type { FakeTalk, FakeTalkOptions, FileShareInput, UserMessageInput } from "./fake-talk-types.js";

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
  const server = createFakeServer({ maxBodyBytes: options.maxUploadBytes ?? 512 * 1024 * 1024 });
  const counters: DavCounters = { served: 0 };
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
  registerDav(server, state, counters);
  const shares = registerShares(server, state);

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
        participants: [...users],
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
    userSharesFile: ({ token, user, name, bytes, caption }) => {
      const room = roomOrThrow(token);
      state.users.set(user.id, user);
      if (!room.participants.includes(user.id)) room.participants.push(user.id);
      const file = state.files.store(user.id, state.files.freePath(user.id, `Talk/${name}`), bytes);
      state.files.share(file.id, user.id, token);
      const message = state.postMessage({
        token,
        actorId: `users/${user.id}`,
        actorName: user.name,
        message: caption ?? "{file}",
        parameters: { actor: actorParameter(user.id, user.name), file: fileParameter(file, server.url) },
        fileId: file.id,
        ...(caption !== undefined ? { caption } : {}),
      });
      return createHook(room, user, message);
    },
    userSharesLocation: ({ token, user, location }) => {
      const room = roomOrThrow(token);
      state.users.set(user.id, user);
      const message = state.postMessage({
        token,
        actorId: `users/${user.id}`,
        actorName: user.name,
        message: "{object}",
        parameters: { actor: actorParameter(user.id, user.name), object: geoParameter(location) },
      });
      return createHook(room, user, message);
    },
    addAccount: ({ id, appPassword, displayName, folders }) =>
      state.files.addAccount({ id, appPassword, displayName: displayName ?? id }, folders),
    addParticipant: (token, userId) => {
      const room = roomOrThrow(token);
      if (!room.participants.includes(userId)) room.participants.push(userId);
    },
    sharedMessage: (referenceId) => {
      const message = [...state.messages.values()].find((m) => m.referenceId === referenceId);
      if (!message) return undefined;
      const file = message.fileId === undefined ? undefined : state.files.files.get(message.fileId);
      return { message, ...(file ? { file } : {}) };
    },
    loseNextShareAnswer: () => shares.loseNextAnswer(),
    get bytesServed() {
      return counters.served;
    },
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
