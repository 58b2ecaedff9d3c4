import {
  createFakeServer,
  empty,
  type FakeResponse,
  type FakeServer,
  json,
  type RequestContext,
} from "@chorus/testkit";
import { FakeGateway, Intent } from "./fake-gateway.js";
import {
  emojiKeyOf,
  type FakeChannel,
  FakeDiscordState,
  type FakeEmoji,
  type FakeMessage,
  type FakeUser,
} from "./fake-state.js";

export interface FakeDiscordOptions {
  /** The bot token requests must carry as `Authorization: Bot <token>`. */
  token?: string;
  bot?: Partial<FakeUser>;
}

/** A stateful fake Discord (REST v10 + gateway WebSocket) on 127.0.0.1 for the real discord.js Client. */
export interface FakeDiscord {
  readonly server: FakeServer;
  readonly state: FakeDiscordState;
  readonly gateway: FakeGateway;
  readonly token: string;
  readonly bot: FakeUser;
  /** `http://127.0.0.1:PORT`; the REST root is `${url}/api`. */
  readonly url: string;
  start(): Promise<string>;
  close(): Promise<void>;
  /** The `channels.discord` block pointing the plugin at this fake. */
  config(extra?: Record<string, unknown>): Record<string, unknown>;
  /** A guild with a text channel; the bot is a member with its own managed role. */
  addGuild(input: { id: string; name: string; channels: { id: string; name: string }[]; emojis?: FakeEmoji[] }): void;
  addThread(input: { id: string; name: string; parentId: string }): FakeChannel;
  /** The DM channel between the bot and `user`. */
  addDm(id: string, user: FakeUser): FakeChannel;
  addMember(guildId: string, user: FakeUser, roles?: string[]): FakeUser;
  /** The managed role Discord gives the bot in a guild. */
  botRoleId(guildId: string): string;
  /** A person writes; MESSAGE_CREATE goes out on the gateway. */
  userSends(input: { channelId: string; author: FakeUser; content: string; replyTo?: string }): FakeMessage;
  /** Dispatches a raw gateway event (fixtures). */
  dispatch(type: string, data: unknown): void;
  userReacts(messageId: string, user: FakeUser, emoji: FakeEmoji): void;
  userUnreacts(messageId: string, user: FakeUser, emoji: FakeEmoji): void;
  /** A moderator removes every reaction on a message (MESSAGE_REACTION_REMOVE_ALL). */
  removeAllReactions(messageId: string): void;
  /** Emoji keys (`👍`, `name:id`) the bot holds on a message. */
  botReactions(messageId: string): string[];
  reactionsBy(messageId: string, userId: string): string[];
  messagesIn(channelId: string): FakeMessage[];
}

type Ctx = RequestContext<undefined>;
const API = "/api/v10";

/** Creates (not yet started) a fake Discord. */
export function createFakeDiscord(options: FakeDiscordOptions = {}): FakeDiscord {
  const token = options.token ?? "fake.discord.bot-token";
  const bot: FakeUser = {
    id: "900000000000000001",
    username: "chorus",
    global_name: "Chorus",
    bot: true,
    ...options.bot,
  };
  const state = new FakeDiscordState(bot);
  const server = createFakeServer();
  const wsUrl = () => `ws://127.0.0.1:${server.port}`;
  const gateway = new FakeGateway(state, () => token, wsUrl);
  const botRoles = new Map<string, string>();

  const authed = (ctx: Ctx): FakeResponse | undefined =>
    ctx.headers.authorization === `Bot ${token}` ? undefined : json(401, { message: "401: Unauthorized", code: 0 });
  const channelOf = (ctx: Ctx): FakeChannel | FakeResponse =>
    state.channel(ctx.params.channel as string) ?? json(404, { message: "Unknown Channel", code: 10003 });
  const messageOf = (ctx: Ctx, channel: FakeChannel): FakeMessage | FakeResponse => {
    const message = state.messages.get(ctx.params.message as string);
    return message?.channel_id === channel.id ? message : json(404, { message: "Unknown Message", code: 10008 });
  };
  const isResponse = (value: object): value is FakeResponse => "status" in value;
  const guarded =
    (handler: (ctx: Ctx, channel: FakeChannel) => FakeResponse) =>
    (ctx: Ctx): FakeResponse => {
      const denied = authed(ctx);
      if (denied) return denied;
      const channel = channelOf(ctx);
      return isResponse(channel) ? channel : handler(ctx, channel);
    };
  const onMessage =
    (handler: (ctx: Ctx, message: FakeMessage) => FakeResponse) =>
    (ctx: Ctx, channel: FakeChannel): FakeResponse => {
      const message = messageOf(ctx, channel);
      return isResponse(message) ? message : handler(ctx, message);
    };
  const parseEmoji = (segment: string): FakeEmoji | undefined => {
    const custom = /^(?:a:)?([\w~]{2,32}):(\d+)$/.exec(segment);
    if (custom) {
      const known = [...state.guilds.values()].flatMap((g) => g.emojis).find((e) => e.id === custom[2]);
      return known;
    }
    return /^[\p{L}\p{N}_:]+$/u.test(segment) ? undefined : { id: null, name: segment };
  };
  const reactionEvent = (message: FakeMessage, userId: string, emoji: FakeEmoji) => ({
    user_id: userId,
    channel_id: message.channel_id,
    message_id: message.id,
    ...(message.guild_id !== undefined ? { guild_id: message.guild_id } : {}),
    emoji,
    message_author_id: message.author.id,
    burst: false,
    type: 0,
  });
  const reactionIntent = (message: FakeMessage) => (intents: number) =>
    (intents & (message.guild_id ? Intent.GuildMessageReactions : Intent.DirectMessageReactions)) !== 0;
  const messageIntent = (message: FakeMessage) => (intents: number) =>
    (intents & (message.guild_id ? Intent.GuildMessages : Intent.DirectMessages)) !== 0;
  const messageCreate = (message: FakeMessage): void => {
    // Discord adds `channel_type` to MESSAGE_CREATE; discord.js needs it to build an uncached DM channel.
    const full = {
      ...message,
      channel_type: state.channel(message.channel_id)?.type ?? 0,
      embeds: [],
      attachments: [],
      components: [],
    };
    const hidden = { ...full, content: "" };
    gateway.dispatch(
      "MESSAGE_CREATE",
      full,
      (intents) => messageIntent(message)(intents) && contentVisible(message, intents),
    );
    gateway.dispatch(
      "MESSAGE_CREATE",
      hidden,
      (intents) => messageIntent(message)(intents) && !contentVisible(message, intents),
    );
  };
  // Without the privileged MESSAGE_CONTENT intent a bot sees guild text only where it is mentioned.
  const contentVisible = (message: FakeMessage, intents: number): boolean =>
    (intents & Intent.MessageContent) !== 0 ||
    message.guild_id === undefined ||
    message.author.id === bot.id ||
    message.mentions.some((u) => u.id === bot.id);
  const react = (message: FakeMessage, user: FakeUser, emoji: FakeEmoji): void => {
    if (state.react(message.id, user.id, emoji)) {
      gateway.dispatch("MESSAGE_REACTION_ADD", reactionEvent(message, user.id, emoji), reactionIntent(message));
    }
  };
  const unreact = (message: FakeMessage, user: FakeUser, key: string): void => {
    const emoji = state.reactions.get(message.id)?.get(key)?.emoji;
    if (emoji && state.unreact(message.id, user.id, key)) {
      gateway.dispatch("MESSAGE_REACTION_REMOVE", reactionEvent(message, user.id, emoji), reactionIntent(message));
    }
  };
  const requireMessage = (id: string): FakeMessage => {
    const message = state.messages.get(id);
    if (!message) throw new Error(`fake Discord: no message ${id}`);
    return message;
  };

  server.route("GET", `${API}/gateway/bot`, (ctx) => {
    return (
      authed(ctx) ??
      json(200, {
        url: wsUrl(),
        shards: 1,
        session_start_limit: { total: 1000, remaining: 999, reset_after: 86_400_000, max_concurrency: 1 },
      })
    );
  });
  server.route("GET", `${API}/users/@me`, (ctx) => authed(ctx) ?? json(200, bot));
  server.websocket("/", (socket) => gateway.accept(socket));

  server.route(
    "POST",
    `${API}/channels/:channel/messages`,
    guarded((ctx, channel) => {
      const body = ctx.json<{ content?: string; message_reference?: { message_id: string } }>();
      const content = body.content ?? "";
      if (content === "" || content.length > 2000) {
        return json(400, { message: "Invalid Form Body", code: 50035, errors: { content: "length 1-2000" } });
      }
      const replyTo = body.message_reference?.message_id;
      if (replyTo !== undefined && state.messages.get(replyTo)?.channel_id !== channel.id) {
        return json(400, { message: "Invalid Form Body", code: 50035, errors: { message_reference: "unknown" } });
      }
      const message = state.postMessage({
        channelId: channel.id,
        author: bot,
        content,
        ...(replyTo ? { replyTo } : {}),
      });
      messageCreate(message);
      return json(200, { ...message, embeds: [], attachments: [], components: [] });
    }),
  );
  server.route(
    "GET",
    `${API}/channels/:channel/messages/:message`,
    guarded(
      onMessage((_ctx, message) =>
        json(200, { ...message, embeds: [], attachments: [], reactions: state.reactionSummary(message.id, bot.id) }),
      ),
    ),
  );
  server.route(
    "POST",
    `${API}/channels/:channel/typing`,
    guarded(() => empty(204)),
  );
  server.route(
    "PUT",
    `${API}/channels/:channel/messages/:message/reactions/:emoji/@me`,
    guarded(
      onMessage((ctx, message) => {
        const emoji = parseEmoji(ctx.params.emoji as string);
        if (!emoji) return json(400, { message: "Unknown Emoji", code: 10014 });
        react(message, bot, emoji);
        return empty(204);
      }),
    ),
  );
  server.route(
    "DELETE",
    `${API}/channels/:channel/messages/:message/reactions/:emoji/@me`,
    guarded(
      onMessage((ctx, message) => {
        const emoji = parseEmoji(ctx.params.emoji as string);
        if (!emoji) return json(400, { message: "Unknown Emoji", code: 10014 });
        unreact(message, bot, emojiKeyOf(emoji));
        return empty(204);
      }),
    ),
  );

  const fake: FakeDiscord = {
    server,
    state,
    gateway,
    token,
    bot,
    get url() {
      return server.url;
    },
    start: () => server.start(),
    close: () => server.close(),
    config: (extra = {}) => ({ token, apiRoot: `${server.url}/api`, retries: 0, ...extra }),
    addGuild({ id, name, channels, emojis = [] }) {
      const roleId = state.snowflake();
      botRoles.set(id, roleId);
      state.guilds.set(id, { id, name, roles: [{ id: roleId, name }], emojis, members: new Map([[bot.id, [roleId]]]) });
      for (const c of channels) state.channels.set(c.id, { id: c.id, type: 0, name: c.name, guild_id: id });
    },
    addThread({ id, name, parentId }) {
      const parent = state.channel(parentId);
      if (!parent?.guild_id) throw new Error(`fake Discord: no guild channel ${parentId}`);
      const thread: FakeChannel = { id, type: 11, name, guild_id: parent.guild_id, parent_id: parentId };
      state.channels.set(id, thread);
      return thread;
    },
    addDm(id, user) {
      state.addUser(user);
      const dm: FakeChannel = { id, type: 1, recipient: user };
      state.channels.set(id, dm);
      return dm;
    },
    addMember(guildId, user, roles = []) {
      state.addUser(user);
      state.guilds.get(guildId)?.members.set(user.id, roles);
      return user;
    },
    botRoleId: (guildId) => botRoles.get(guildId) ?? "",
    userSends(input) {
      const message = state.postMessage(input);
      messageCreate(message);
      return message;
    },
    dispatch: (type, data) => gateway.dispatch(type, data),
    userReacts: (messageId, user, emoji) => react(requireMessage(messageId), user, emoji),
    userUnreacts: (messageId, user, emoji) => unreact(requireMessage(messageId), user, emojiKeyOf(emoji)),
    removeAllReactions(messageId) {
      const message = requireMessage(messageId);
      state.reactions.delete(messageId);
      gateway.dispatch(
        "MESSAGE_REACTION_REMOVE_ALL",
        {
          channel_id: message.channel_id,
          message_id: message.id,
          ...(message.guild_id ? { guild_id: message.guild_id } : {}),
        },
        reactionIntent(message),
      );
    },
    botReactions: (messageId) => state.reactionsBy(messageId, bot.id),
    reactionsBy: (messageId, userId) => state.reactionsBy(messageId, userId),
    messagesIn: (channelId) => [...state.messages.values()].filter((m) => m.channel_id === channelId),
  };
  return fake;
}
