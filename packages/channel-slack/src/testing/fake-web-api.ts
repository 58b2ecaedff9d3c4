import { type FakeResponse, type FakeServer, json, type RequestContext } from "@chorus/testkit";
import type { FakeMessage, FakeSlackState, FakeUser } from "./fake-state.js";

/** Who the bot is in the fake workspace. */
export interface FakeBot extends FakeUser {
  bot_id: string;
  app_id: string;
}

/** What the Web API routes need besides the state. */
export interface WebApiContext {
  state: FakeSlackState;
  bot: FakeBot;
  team: { id: string; name: string };
  tokens: { bot: string; app: string };
  /** Tokens Slack no longer accepts (`token_revoked`). */
  revoked: Set<string>;
  /** A Socket Mode URL (`apps.connections.open`). */
  openSocket(): string;
  /** The bot posted or reacted: Slack tells the app about it like about anyone's. */
  onMessage(message: FakeMessage): void;
  onReaction(type: "reaction_added" | "reaction_removed", message: FakeMessage, user: string, name: string): void;
  /** More methods (the files API, `fake-file-methods.ts`). */
  more?: Record<string, Method>;
}

/** A method's arguments: form fields, non-scalar ones as their JSON (how WebClient sends them). */
export type Args = Record<string, string | undefined>;
/** One Web API method: the arguments and which token called it → Slack's answer. */
export type Method = (args: Args, token: "bot" | "app") => Record<string, unknown>;

/** Slack's own limit; longer text is refused with `msg_too_long`. */
const MAX_TEXT = 40_000;
/** `{ ok: true, … }`. */
export const ok = (body: Record<string, unknown> = {}) => ({ ok: true, ...body });
/** `{ ok: false, error, … }` (HTTP 200, as Slack answers errors). */
export const no = (error: string, extra: Record<string, unknown> = {}) => ({ ok: false, error, ...extra });

/**
 * The Web API methods the channel calls, as Slack answers them: POST `/api/<method>` with a
 * form (or JSON) body and `Authorization: Bearer`, always HTTP 200 with `{ ok: true, … }` or
 * `{ ok: false, error }` (rate limits, injected as faults, are HTTP 429 with `Retry-After`).
 */
export function installWebApi(server: FakeServer, ctx: WebApiContext): void {
  const { state, bot } = ctx;
  const message = (args: Args) => state.message(args.channel ?? "", args.timestamp ?? args.ts ?? "");
  const withMessage = (args: Args, run: (m: FakeMessage) => Record<string, unknown>) => {
    if (!state.conversations.has(args.channel ?? "")) return no("channel_not_found");
    const found = message(args);
    return found ? run(found) : no("message_not_found");
  };
  const shown = (m: FakeMessage) => {
    const { channel: _channel, reactions, ...rest } = m;
    return {
      type: "message",
      ...rest,
      team: ctx.team.id,
      ...(reactions.length ? { reactions: counted(reactions) } : {}),
    };
  };

  const methods: Record<string, Method> = {
    "auth.test": (_args, token) =>
      token === "app"
        ? no("not_allowed_token_type")
        : ok({
            url: `https://${ctx.team.name.toLowerCase().replace(/\W+/g, "-")}.slack.com/`,
            team: ctx.team.name,
            user: bot.name,
            team_id: ctx.team.id,
            user_id: bot.id,
            bot_id: bot.bot_id,
            is_enterprise_install: false,
          }),
    "apps.connections.open": (_args, token) =>
      token === "app" ? ok({ url: ctx.openSocket() }) : no("not_allowed_token_type"),
    "chat.postMessage": (args) => {
      const conversation = state.conversations.get(args.channel ?? "");
      if (!conversation) return no("channel_not_found");
      if (!conversation.members.includes(bot.id)) return no("not_in_channel");
      const text = args.text ?? "";
      if (text.trim() === "") return no("no_text");
      if (text.length > MAX_TEXT) return no("msg_too_long");
      const posted = state.post({
        channel: conversation.id,
        user: bot.id,
        bot_id: bot.bot_id,
        app_id: bot.app_id,
        text,
        ...(args.thread_ts ? { thread_ts: args.thread_ts } : {}),
      });
      ctx.onMessage(posted);
      return ok({ channel: posted.channel, ts: posted.ts, message: shown(posted) });
    },
    "reactions.add": (args) =>
      withMessage(args, (m) => {
        const name = args.name ?? "";
        if (!state.knowsEmoji(name)) return no("invalid_name");
        if (!state.addReaction(m, bot.id, name)) return no("already_reacted");
        ctx.onReaction("reaction_added", m, bot.id, name);
        return ok();
      }),
    "reactions.remove": (args) =>
      withMessage(args, (m) => {
        const name = args.name ?? "";
        if (!state.knowsEmoji(name)) return no("invalid_name");
        if (!state.removeReaction(m, bot.id, name)) return no("no_reaction");
        ctx.onReaction("reaction_removed", m, bot.id, name);
        return ok();
      }),
    "reactions.get": (args) =>
      withMessage(args, (m) => {
        // Without `full`, Slack may cut the users short; the caller is always among them.
        const reactions = counted(m.reactions).map((r) =>
          args.full === "true"
            ? r
            : { ...r, users: [...new Set([...r.users.slice(0, 1), ...r.users.filter((u) => u === bot.id)])] },
        );
        return ok({ type: "message", channel: m.channel, message: { ...shown(m), reactions } });
      }),
    "users.info": (args) => {
      const user = state.users.get(args.user ?? "");
      if (!user) return no("user_not_found");
      const { display_name = "", real_name = user.name, ...rest } = user;
      return ok({
        user: {
          ...rest,
          team_id: ctx.team.id,
          deleted: false,
          real_name,
          is_bot: user.is_bot ?? false,
          profile: { real_name, display_name },
        },
      });
    },
    "conversations.info": (args) => {
      const c = state.conversations.get(args.channel ?? "");
      if (!c) return no("channel_not_found");
      const im = c.type === "im";
      return ok({
        channel: {
          id: c.id,
          ...(c.name ? { name: c.name } : {}),
          is_channel: c.type === "channel",
          is_group: c.type === "group",
          is_im: im,
          is_mpim: c.type === "mpim",
          is_private: c.type !== "channel",
          is_member: c.members.includes(bot.id),
          ...(im ? { user: c.members.find((m) => m !== bot.id) } : {}),
        },
      });
    },
    "conversations.members": (args) => {
      const c = state.conversations.get(args.channel ?? "");
      if (!c) return no("channel_not_found");
      const from = Number(args.cursor ?? 0);
      const limit = Number(args.limit ?? 100);
      const next = from + limit < c.members.length ? String(from + limit) : "";
      return ok({ members: c.members.slice(from, from + limit), response_metadata: { next_cursor: next } });
    },
    "conversations.history": (args) => {
      if (!state.conversations.has(args.channel ?? "")) return no("channel_not_found");
      const top = state.messagesIn(args.channel ?? "").filter((m) => !m.thread_ts || m.thread_ts === m.ts);
      return ok({ messages: inWindow(top, args).map(shown), has_more: false });
    },
    "conversations.replies": (args) => {
      if (!state.conversations.has(args.channel ?? "")) return no("channel_not_found");
      const thread = state.messagesIn(args.channel ?? "").filter((m) => m.ts === args.ts || m.thread_ts === args.ts);
      if (thread.length === 0) return no("thread_not_found");
      return ok({ messages: inWindow(thread, args).map(shown), has_more: false });
    },
    ...ctx.more,
  };

  server.route("POST", "/api/:method", (request: RequestContext): FakeResponse => {
    const args = argsOf(request.body);
    const header = String(request.headers.authorization ?? "");
    const token = header.startsWith("Bearer ") ? header.slice(7) : args.token;
    if (!token) return json(200, no("not_authed"));
    if (ctx.revoked.has(token)) return json(200, no("token_revoked"));
    const kind = token === ctx.tokens.bot ? "bot" : token === ctx.tokens.app ? "app" : undefined;
    if (!kind) return json(200, no("invalid_auth"));
    const method = methods[request.params.method ?? ""];
    return json(200, method ? method(args, kind) : no("unknown_method"));
  });
}

function argsOf(body: unknown): Args {
  if (body === null || typeof body !== "object") return {};
  return Object.fromEntries(
    Object.entries(body).map(([key, value]) => [key, typeof value === "string" ? value : JSON.stringify(value)]),
  );
}

function counted(reactions: FakeMessage["reactions"]) {
  return reactions.map((r) => ({ name: r.name, users: [...r.users], count: r.users.length }));
}

/** `latest`/`oldest`/`inclusive`/`limit` as conversations.history reads them; newest first for history. */
function inWindow(messages: FakeMessage[], args: Args): FakeMessage[] {
  const inclusive = args.inclusive === "true" || args.inclusive === "1";
  const after = (ts: string, bound?: string) => bound === undefined || (inclusive ? ts >= bound : ts > bound);
  const before = (ts: string, bound?: string) => bound === undefined || (inclusive ? ts <= bound : ts < bound);
  const picked = messages.filter((m) => after(m.ts, args.oldest) && before(m.ts, args.latest));
  return picked.slice(0, Number(args.limit ?? 100));
}
