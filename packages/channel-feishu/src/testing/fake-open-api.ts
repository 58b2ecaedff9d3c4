import { type FakeResponse, type FakeServer, json, type RequestContext } from "@chorus/testkit";
import { FEISHU_EMOJI_TYPES } from "../vocabulary.js";
import type { FeishuReaction } from "../wire.js";
import { type FakeIm, fail, ok } from "./fake-im.js";
import { type FakeMediaLimits, registerMediaRoutes } from "./fake-media-routes.js";
import type { FakeResources } from "./fake-resources.js";
import type { FakeFeishuState, FakeMessage } from "./fake-state.js";
import type { FakeTokens } from "./fake-tokens.js";

/** What the Open API routes need from the fake. */
export interface OpenApiDeps {
  server: FakeServer;
  state: FakeFeishuState;
  tokens: FakeTokens;
  im: FakeIm;
  appSecret: string;
  bot: { open_id: string; app_name: string };
  /** Whether the app was granted a contact scope (user names). */
  contactScope: () => boolean;
  resources: FakeResources;
  limits: FakeMediaLimits;
}

type Ctx = RequestContext<undefined>;

/** Reactions and members come a page at a time; the page token is opaque to the client. */
const pageToken = (offset: number) => Buffer.from(`p:${offset}`).toString("base64url");
const offsetOf = (token: string | null): number | undefined => {
  if (!token) return 0;
  const match = /^p:(\d+)$/u.exec(Buffer.from(token, "base64url").toString("utf8"));
  return match ? Number(match[1]) : undefined;
};

/**
 * The Open API routes of the fake Feishu: the tenant token, bot info, messages (create, reply,
 * get), reactions (create, delete, list with pagination), chats and their members, contact users,
 * and media (`fake-media-routes.ts`), each answering Feishu's envelope `{ code, msg, data }`,
 * refusals with Feishu's codes.
 */
export function registerOpenApi(deps: OpenApiDeps): void {
  const { server, state, tokens, im } = deps;
  const authed = (method: string, path: string, handler: (ctx: Ctx) => FakeResponse | Promise<FakeResponse>) =>
    server.route(method, path, (ctx: Ctx) => {
      const auth = String(ctx.headers.authorization ?? "");
      if (!auth.startsWith("Bearer ")) {
        return fail(
          400,
          99991661,
          "Missing access token for authorization. Please make a request with token attached.",
        );
      }
      if (!tokens.valid(auth.slice("Bearer ".length))) {
        return fail(
          400,
          99991663,
          "Invalid access token for authorization. Please make a request with token attached.",
        );
      }
      return handler(ctx);
    });
  const withMessage = (handler: (ctx: Ctx, message: FakeMessage) => FakeResponse) => (ctx: Ctx) => {
    const message = state.messages.get(ctx.params.message_id ?? "");
    if (!message) return fail(400, 231003, "The message is not found, maybe not exist or deleted.");
    return handler(ctx, message);
  };

  server.route("POST", "/open-apis/auth/v3/tenant_access_token/internal", (ctx) => {
    const body = ctx.json<{ app_id?: unknown; app_secret?: unknown }>();
    if (body.app_id !== state.appId) return fail(400, 10003, "invalid param");
    if (body.app_secret !== deps.appSecret) return fail(400, 10014, "app secret invalid");
    const { token, expire } = tokens.issue();
    // Not wrapped in `data`, unlike every other answer.
    return json(200, { code: 0, msg: "ok", tenant_access_token: token, expire });
  });

  registerMediaRoutes(authed, state, deps.resources, deps.limits);

  authed("GET", "/open-apis/bot/v3/info", () =>
    json(200, { code: 0, msg: "ok", bot: { activate_status: 2, ip_white_list: [], avatar_url: "", ...deps.bot } }),
  );

  authed("POST", "/open-apis/im/v1/messages", (ctx) => im.create(ctx));
  authed(
    "POST",
    "/open-apis/im/v1/messages/:message_id/reply",
    withMessage((ctx, message) => im.reply(ctx, message)),
  );
  authed(
    "GET",
    "/open-apis/im/v1/messages/:message_id",
    withMessage((_ctx, message) => ok({ items: [message] })),
  );

  authed(
    "POST",
    "/open-apis/im/v1/messages/:message_id/reactions",
    withMessage((ctx, message) => {
      const type = ctx.json<{ reaction_type?: { emoji_type?: unknown } }>().reaction_type?.emoji_type;
      if (message.deleted) return fail(400, 231003, "The message is not found, maybe not exist or deleted.");
      if (!state.chats.get(message.chat_id)?.botIn) {
        return fail(400, 231002, "The operator has no permission to react on the specific message.");
      }
      if (typeof type !== "string" || !FEISHU_EMOJI_TYPES.includes(type))
        return fail(400, 231001, "reaction type is invalid.");
      const reaction = state.addReaction(message.message_id, { operator_id: state.appId, operator_type: "app" }, type);
      im.reactionChanged("created", message.message_id, type, { app: state.appId });
      return ok(reaction);
    }),
  );

  authed(
    "DELETE",
    "/open-apis/im/v1/messages/:message_id/reactions/:reaction_id",
    withMessage((ctx, message) => {
      const id = ctx.params.reaction_id ?? "";
      const reaction = (state.reactions.get(message.message_id) ?? []).find((r) => r.reaction_id === id);
      if (!reaction) {
        const elsewhere = [...state.reactions.values()].some((list) => list.some((r) => r.reaction_id === id));
        return elsewhere
          ? fail(400, 231010, "The reaction does not belong to the message.")
          : fail(400, 231011, "The request has an invalid reaction_id.");
      }
      if (reaction.operator.operator_id !== state.appId) {
        return fail(400, 231007, "The operator has no permission to delete this reaction.");
      }
      state.removeReaction(message.message_id, id);
      im.reactionChanged("deleted", message.message_id, reaction.reaction_type.emoji_type, { app: state.appId });
      return ok(reaction);
    }),
  );

  authed(
    "GET",
    "/open-apis/im/v1/messages/:message_id/reactions",
    withMessage((ctx, message) => {
      const type = ctx.query.get("reaction_type");
      if (type !== null && !FEISHU_EMOJI_TYPES.includes(type)) return fail(400, 231001, "reaction type is invalid.");
      const idType = ctx.query.get("user_id_type") ?? "open_id";
      if (!["open_id", "union_id", "user_id"].includes(idType)) return fail(400, 231014, "user_id_type is invalid.");
      const size = Number(ctx.query.get("page_size") ?? 20);
      if (!Number.isInteger(size) || size < 1 || size > 50) return fail(400, 230001, "page_size must be 1..50");
      const offset = offsetOf(ctx.query.get("page_token"));
      if (offset === undefined) return fail(400, 231012, "The request has an invalid pageToken.");
      const all = (state.reactions.get(message.message_id) ?? []).filter(
        (r) => type === null || r.reaction_type.emoji_type === type,
      );
      const items = all.slice(offset, offset + size).map((r) => asSeenBy(r, idType, state));
      const more = offset + size < all.length;
      return ok({ items, has_more: more, ...(more ? { page_token: pageToken(offset + size) } : {}) });
    }),
  );

  authed("GET", "/open-apis/im/v1/chats/:chat_id", (ctx) => {
    const chat = state.chats.get(ctx.params.chat_id ?? "");
    if (!chat) return fail(400, 232006, "Your request specifies a chat_id which is invalid.");
    if (!chat.botIn) return fail(400, 232011, "Operator can NOT be out of the chat.");
    return ok({
      avatar: "",
      name: chat.chat_mode === "p2p" ? "" : chat.name,
      description: "",
      owner_id_type: "open_id",
      owner_id: chat.members[0] ?? "",
      chat_mode: chat.chat_mode,
      chat_type: "private",
      chat_tag: "inner",
      external: false,
      tenant_key: state.tenantKey,
      user_count: String(chat.members.length),
      bot_count: "1",
    });
  });

  authed("GET", "/open-apis/im/v1/chats/:chat_id/members", (ctx) => {
    const chat = state.chats.get(ctx.params.chat_id ?? "");
    if (!chat) return fail(400, 232006, "Your request specifies a chat_id which is invalid.");
    if (!chat.botIn) return fail(400, 232011, "Operator can NOT be out of the chat.");
    const size = Math.min(100, Number(ctx.query.get("page_size") ?? 20));
    const offset = offsetOf(ctx.query.get("page_token"));
    if (offset === undefined) return fail(400, 232001, "Your request contains an invalid request parameter.");
    const items = chat.members.slice(offset, offset + size).map((openId) => ({
      member_id_type: "open_id",
      member_id: openId,
      name: state.user(openId).name,
      tenant_key: state.tenantKey,
    }));
    const more = offset + size < chat.members.length;
    return ok({
      items,
      page_token: more ? pageToken(offset + size) : "",
      has_more: more,
      member_total: chat.members.length,
    });
  });

  authed("GET", "/open-apis/contact/v3/users/:user_id", (ctx) => {
    if (!deps.contactScope()) {
      return fail(
        400,
        99991672,
        "Access denied. One of the following scopes is required: [contact:user.base:readonly, contact:contact:readonly_as_app]",
      );
    }
    const user = state.users.get(ctx.params.user_id ?? "");
    if (!user) return fail(400, 41050, "no user authority error");
    return ok({ user: { union_id: user.union_id, open_id: user.open_id, name: user.name, en_name: user.name } });
  });
}

/** A reaction as one caller sees it: a person's operator id in the id type asked for. */
function asSeenBy(reaction: FeishuReaction, idType: string, state: FakeFeishuState): FeishuReaction {
  if (reaction.operator.operator_type !== "user") return reaction;
  const user = state.user(reaction.operator.operator_id);
  const id = idType === "union_id" ? user.union_id : idType === "user_id" ? user.user_id : user.open_id;
  return { ...reaction, operator: { ...reaction.operator, operator_id: id } };
}
