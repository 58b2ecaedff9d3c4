import { empty, type FakeResponse, type FakeServer, json, type RequestContext } from "@chorus/testkit";
import { emojiKeyOf, type FakeChannel, type FakeDiscordState, type FakeEmoji, type FakeMessage } from "./fake-state.js";
import { readMessageForm, type UploadLimits } from "./message-form.js";
import { wireMessage } from "./wire.js";

type Ctx = RequestContext<undefined>;
const API = "/api/v10";

/** What the REST routes need from the fake around them. */
export interface RestApiDeps {
  readonly state: FakeDiscordState;
  /** The token requests must carry as `Authorization: Bot <token>` (read at each request). */
  token(): string;
  /** `ws://…` of the gateway, answered by `GET /gateway/bot`. */
  gatewayUrl(): string;
  /** A message was created (by the bot): dispatch MESSAGE_CREATE. */
  created(message: FakeMessage): void;
  /** The bot reacted or took a reaction back: dispatch the reaction event. */
  react(message: FakeMessage, emoji: FakeEmoji): void;
  unreact(message: FakeMessage, key: string): void;
  /** What an upload may be (Discord's limits unless a test narrows them). */
  readonly uploadLimits: UploadLimits;
  /** A fresh signed URL for one of the CDN's attachment URLs; undefined for any other URL. */
  refreshUrl(url: string): string | undefined;
}

/**
 * Registers Discord's REST v10 routes the channel uses on `server`: gateway info, messages (with
 * uploads), attachment URL refreshes, typing, reactions.
 */
export function registerRestApi(server: FakeServer, deps: RestApiDeps): void {
  const { state } = deps;
  const authed = (ctx: Ctx): FakeResponse | undefined =>
    ctx.headers.authorization === `Bot ${deps.token()}`
      ? undefined
      : json(401, { message: "401: Unauthorized", code: 0 });
  const isResponse = (value: object): value is FakeResponse => "status" in value;
  const channelOf = (ctx: Ctx): FakeChannel | FakeResponse =>
    state.channel(ctx.params.channel as string) ?? json(404, { message: "Unknown Channel", code: 10003 });
  const guarded =
    (handler: (ctx: Ctx, channel: FakeChannel) => FakeResponse | Promise<FakeResponse>) =>
    (ctx: Ctx): FakeResponse | Promise<FakeResponse> => {
      const denied = authed(ctx);
      if (denied) return denied;
      const channel = channelOf(ctx);
      return isResponse(channel) ? channel : handler(ctx, channel);
    };
  const onMessage =
    (handler: (ctx: Ctx, message: FakeMessage) => FakeResponse) =>
    (ctx: Ctx, channel: FakeChannel): FakeResponse => {
      const message = state.messages.get(ctx.params.message as string);
      return message?.channel_id === channel.id
        ? handler(ctx, message)
        : json(404, { message: "Unknown Message", code: 10008 });
    };
  const parseEmoji = (segment: string): FakeEmoji | undefined => {
    const custom = /^(?:a:)?([\w~]{2,32}):(\d+)$/.exec(segment);
    if (custom) return [...state.guilds.values()].flatMap((g) => g.emojis).find((e) => e.id === custom[2]);
    return /^[\p{L}\p{N}_:]+$/u.test(segment) ? undefined : { id: null, name: segment };
  };

  server.route("GET", `${API}/gateway/bot`, (ctx) => {
    return (
      authed(ctx) ??
      json(200, {
        url: deps.gatewayUrl(),
        shards: 1,
        session_start_limit: { total: 1000, remaining: 999, reset_after: 86_400_000, max_concurrency: 1 },
      })
    );
  });
  server.route("GET", `${API}/users/@me`, (ctx) => authed(ctx) ?? json(200, { ...state.bot, bot: true }));
  server.route(
    "POST",
    `${API}/channels/:channel/messages`,
    guarded(async (ctx, channel) => {
      const form = await readMessageForm(ctx, deps.uploadLimits);
      if (!("files" in form)) return form;
      const { body, files } = form;
      const content = body.content ?? "";
      if (files.length === 0 && content === "")
        return json(400, { message: "Cannot send an empty message", code: 50006 });
      if (content.length > 2000) {
        return json(400, { message: "Invalid Form Body", code: 50035, errors: { content: "length 1-2000" } });
      }
      const replyTo = body.message_reference?.message_id;
      if (replyTo !== undefined && state.messages.get(replyTo)?.channel_id !== channel.id) {
        return json(400, { message: "Invalid Form Body", code: 50035, errors: { message_reference: "unknown" } });
      }
      const message = state.postMessage({
        channelId: channel.id,
        author: state.bot,
        content,
        ...(replyTo ? { replyTo } : {}),
        attachments: files,
      });
      deps.created(message);
      return json(200, wireMessage(message, state));
    }),
  );
  // Not in Discord's developer docs; its wire shape as bots use it: { attachment_urls } → { refreshed_urls: [{ original, refreshed }] }.
  server.route("POST", `${API}/attachments/refresh-urls`, (ctx) => {
    const denied = authed(ctx);
    if (denied) return denied;
    const urls = ctx.json<{ attachment_urls?: unknown }>().attachment_urls;
    if (!Array.isArray(urls) || urls.some((url) => typeof url !== "string")) {
      return json(400, { message: "Invalid Form Body", code: 50035, errors: { attachment_urls: "required" } });
    }
    const refreshed = (urls as string[]).flatMap((original) => {
      const fresh = deps.refreshUrl(original);
      return fresh ? [{ original, refreshed: fresh }] : [];
    });
    return json(200, { refreshed_urls: refreshed });
  });
  server.route(
    "GET",
    `${API}/channels/:channel/messages/:message`,
    guarded(
      onMessage((_ctx, message) =>
        json(200, { ...wireMessage(message, state), reactions: state.reactionSummary(message.id, state.bot.id) }),
      ),
    ),
  );
  server.route(
    "POST",
    `${API}/channels/:channel/typing`,
    guarded(() => empty(204)),
  );
  // PUT adds the bot's reaction, DELETE takes it back; both answer 204, or 10014 for an emoji Discord does not know.
  const ownReaction = (method: "PUT" | "DELETE", change: (message: FakeMessage, emoji: FakeEmoji) => void) =>
    server.route(
      method,
      `${API}/channels/:channel/messages/:message/reactions/:emoji/@me`,
      guarded(
        onMessage((ctx, message) => {
          const emoji = parseEmoji(ctx.params.emoji as string);
          if (!emoji) return json(400, { message: "Unknown Emoji", code: 10014 });
          change(message, emoji);
          return empty(204);
        }),
      ),
    );
  ownReaction("PUT", (message, emoji) => deps.react(message, emoji));
  ownReaction("DELETE", (message, emoji) => deps.unreact(message, emojiKeyOf(emoji)));
}
