import { createFakeServer, type FakeServer, outage, type PlatformFault } from "@chorus/testkit";
import { FakeGateway, Intent } from "./fake-gateway.js";
import { createFakeMedia, type FakeMediaControls } from "./fake-media.js";
import {
  emojiKeyOf,
  type FakeChannel,
  FakeDiscordState,
  type FakeEmoji,
  type FakeMessage,
  type FakeUser,
} from "./fake-state.js";
import { DISCORD_UPLOAD_LIMITS, type UploadLimits } from "./message-form.js";
import { registerRestApi } from "./rest-api.js";
import { messageCreate, reactionEvent, unreadableMessageCreate } from "./wire.js";

export interface FakeDiscordOptions {
  /** The bot token requests must carry as `Authorization: Bot <token>`. */
  token?: string;
  bot?: Partial<FakeUser>;
  /** `heartbeat_interval` of HELLO (Discord: about 41 s). */
  heartbeatIntervalMs?: number;
  /** False: the bot's MESSAGE_CONTENT switch is off in the portal, so asking for it closes the gateway with 4014. */
  messageContentAllowed?: boolean;
  /** Upload limits to enforce instead of Discord's (10 MiB per file, 25 MiB per request, 10 files). */
  uploadLimits?: Partial<UploadLimits>;
  /** How long a signed attachment URL stays valid (Discord: about a day). */
  attachmentUrlLifetimeMs?: number;
}

/**
 * A stateful fake Discord (REST v10 + gateway WebSocket, and its CDN on a port of its own) on
 * 127.0.0.1 for the real discord.js Client.
 */
export interface FakeDiscord extends FakeMediaControls {
  readonly server: FakeServer;
  readonly state: FakeDiscordState;
  readonly gateway: FakeGateway;
  /** The token Discord accepts now. */
  readonly token: string;
  readonly bot: FakeUser;
  /** `http://127.0.0.1:PORT`; the REST root is `${url}/api`. */
  readonly url: string;
  start(): Promise<string>;
  close(): Promise<void>;
  /** The `channels.discord` block pointing the plugin at this fake (REST, gateway and CDN). */
  config(extra?: Record<string, unknown>): Record<string, unknown>;
  /** A guild with a text channel; the bot is a member with its own managed role. */
  addGuild(input: { id: string; name: string; channels: { id: string; name: string }[]; emojis?: FakeEmoji[] }): void;
  addThread(input: { id: string; name: string; parentId: string }): FakeChannel;
  /** The DM channel between the bot and `user`. */
  addDm(id: string, user: FakeUser): FakeChannel;
  addMember(guildId: string, user: FakeUser, roles?: string[], nick?: string): FakeUser;
  /** The managed role Discord gives the bot in a guild. */
  botRoleId(guildId: string): string;
  /** A person writes; MESSAGE_CREATE goes out on the gateway. */
  userSends(input: { channelId: string; author: FakeUser; content: string; replyTo?: string }): FakeMessage;
  /** Dispatches a raw gateway event (fixtures). */
  dispatch(type: string, data: unknown): void;
  /** The gateway sends its last dispatch again, as a replay after RESUME does. */
  redeliverLast(): void;
  /** A MESSAGE_CREATE in `channelId` that no client can read (a numeric id, no author). */
  deliverUnparseable(channelId: string): void;
  userReacts(messageId: string, user: FakeUser, emoji: FakeEmoji): void;
  userUnreacts(messageId: string, user: FakeUser, emoji: FakeEmoji): void;
  /** A moderator removes every reaction on a message (MESSAGE_REACTION_REMOVE_ALL). */
  removeAllReactions(messageId: string): void;
  /** From now on REST (testkit's `outage(kind)`) and the gateway (`FakeGateway.startFault`) fail like `kind`. */
  fault(kind: PlatformFault): void;
  /** Ends every fault, of REST and of the gateway. */
  heal(): void;
  /** The token is reset in the portal: the old one is refused (REST 401, gateway 4004), `next` works. */
  resetToken(next: string): void;
  /** Emoji keys (`👍`, `name:id`) the bot holds on a message. */
  botReactions(messageId: string): string[];
  reactionsBy(messageId: string, userId: string): string[];
  messagesIn(channelId: string): FakeMessage[];
}

/** Creates (not yet started) a fake Discord. */
export function createFakeDiscord(options: FakeDiscordOptions = {}): FakeDiscord {
  let token = options.token ?? "fake.discord.bot-token";
  const bot: FakeUser = {
    id: "900000000000000001",
    username: "chorus",
    global_name: "Chorus",
    bot: true,
    ...options.bot,
  };
  const state = new FakeDiscordState(bot);
  // Above Discord's 25 MiB request limit, so an upload over it gets Discord's answer (413, 40005), not the server's.
  const server = createFakeServer({ maxBodyBytes: 64 * 1024 * 1024 });
  const wsUrl = () => `ws://127.0.0.1:${server.port}`;
  const gateway = new FakeGateway(state, {
    token: () => token,
    url: wsUrl,
    ...(options.heartbeatIntervalMs !== undefined ? { heartbeatIntervalMs: options.heartbeatIntervalMs } : {}),
    ...(options.messageContentAllowed !== undefined ? { messageContentAllowed: options.messageContentAllowed } : {}),
  });
  const botRoles = new Map<string, string>();

  const reactionIntent = (message: FakeMessage) => (intents: number) =>
    (intents & (message.guild_id ? Intent.GuildMessageReactions : Intent.DirectMessageReactions)) !== 0;
  const messageIntent = (message: FakeMessage) => (intents: number) =>
    (intents & (message.guild_id ? Intent.GuildMessages : Intent.DirectMessages)) !== 0;
  // Without the privileged MESSAGE_CONTENT intent a bot sees guild text only where it is mentioned.
  const contentVisible = (message: FakeMessage, intents: number): boolean =>
    (intents & Intent.MessageContent) !== 0 ||
    message.guild_id === undefined ||
    message.author.id === bot.id ||
    message.mentions.some((u) => u.id === bot.id);
  const created = (message: FakeMessage): void => {
    const full = messageCreate(message, state);
    // Without the intent "content, embeds, attachments, and components" arrive empty (resources/message.mdx).
    const hidden = { ...full, content: "", embeds: [], attachments: [], components: [] };
    const sees = messageIntent(message);
    gateway.dispatch("MESSAGE_CREATE", full, (intents) => sees(intents) && contentVisible(message, intents));
    gateway.dispatch("MESSAGE_CREATE", hidden, (intents) => sees(intents) && !contentVisible(message, intents));
  };
  const react = (message: FakeMessage, user: FakeUser, emoji: FakeEmoji): void => {
    if (!state.react(message.id, user.id, emoji)) return;
    gateway.dispatch(
      "MESSAGE_REACTION_ADD",
      reactionEvent("add", message, user.id, emoji, state),
      reactionIntent(message),
    );
  };
  const unreact = (message: FakeMessage, user: FakeUser, key: string): void => {
    const emoji = state.reactions.get(message.id)?.get(key)?.emoji;
    if (!emoji || !state.unreact(message.id, user.id, key)) return;
    const event = reactionEvent("remove", message, user.id, emoji, state);
    gateway.dispatch("MESSAGE_REACTION_REMOVE", event, reactionIntent(message));
  };
  const media = createFakeMedia(state, created, options.attachmentUrlLifetimeMs);
  const requireMessage = (id: string): FakeMessage => {
    const message = state.messages.get(id);
    if (!message) throw new Error(`fake Discord: no message ${id}`);
    return message;
  };

  registerRestApi(server, {
    state,
    token: () => token,
    gatewayUrl: wsUrl,
    created,
    react: (message, emoji) => react(message, bot, emoji),
    unreact: (message, key) => unreact(message, bot, key),
    uploadLimits: { ...DISCORD_UPLOAD_LIMITS, ...options.uploadLimits },
    refreshUrl: (url) => media.cdn.refresh(url),
  });
  server.websocket("/", (socket) => gateway.accept(socket));

  return {
    ...media,
    server,
    state,
    gateway,
    get token() {
      return token;
    },
    bot,
    get url() {
      return server.url;
    },
    async start() {
      await media.cdn.start();
      return server.start();
    },
    async close() {
      await Promise.all([server.close(), media.cdn.close()]);
    },
    config: (extra = {}) => ({
      token,
      apiRoot: `${server.url}/api`,
      cdnUrl: media.cdn.url,
      mediaProxyUrl: media.cdn.mediaUrl,
      retries: 0,
      ...extra,
    }),
    addGuild({ id, name, channels, emojis = [] }) {
      const roleId = state.snowflake();
      botRoles.set(id, roleId);
      state.guilds.set(id, {
        id,
        name,
        roles: [{ id: roleId, name }],
        emojis,
        members: new Map([[bot.id, { roles: [roleId] }]]),
      });
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
    addMember(guildId, user, roles = [], nick) {
      state.addUser(user);
      state.guilds.get(guildId)?.members.set(user.id, { roles, ...(nick !== undefined ? { nick } : {}) });
      return user;
    },
    botRoleId: (guildId) => botRoles.get(guildId) ?? "",
    userSends(input) {
      const message = state.postMessage(input);
      created(message);
      return message;
    },
    dispatch: (type, data) => gateway.dispatch(type, data),
    redeliverLast: () => gateway.redeliverLast(),
    deliverUnparseable(channelId) {
      gateway.dispatch("MESSAGE_CREATE", unreadableMessageCreate(channelId, state.channel(channelId)?.guild_id));
    },
    userReacts: (messageId, user, emoji) => react(requireMessage(messageId), user, emoji),
    userUnreacts: (messageId, user, emoji) => unreact(requireMessage(messageId), user, emojiKeyOf(emoji)),
    removeAllReactions(messageId) {
      const message = requireMessage(messageId);
      state.reactions.delete(messageId);
      const event = {
        channel_id: message.channel_id,
        message_id: message.id,
        ...(message.guild_id ? { guild_id: message.guild_id } : {}),
      };
      gateway.dispatch("MESSAGE_REACTION_REMOVE_ALL", event, reactionIntent(message));
    },
    fault(kind) {
      server.inject(outage(kind));
      gateway.startFault(kind);
    },
    heal() {
      server.clearFaults();
      gateway.heal();
    },
    resetToken(next) {
      const old = token;
      token = next;
      gateway.revoke(old);
    },
    botReactions: (messageId) => state.reactionsBy(messageId, bot.id),
    reactionsBy: (messageId, userId) => state.reactionsBy(messageId, userId),
    messagesIn: (channelId) => [...state.messages.values()].filter((m) => m.channel_id === channelId),
  };
}
