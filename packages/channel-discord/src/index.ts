/**
 * Discord, through discord.js: the plugin object the gateway imports and the wiring of one bot
 * account. Each concern lives in its own file: `config.ts` → `client.ts` (+ `errors.ts`) →
 * `inbound.ts` (+ `listeners.ts`) → `outbound.ts` → `reactions.ts` (+ `emoji.ts`).
 */
import {
  CHORUS_API_VERSION,
  type ChannelCapabilities,
  type ChannelContext,
  type ChannelInstance,
  type ChannelStatus,
  ChorusError,
  defineChannel,
  type MessageRef,
} from "@chorus/core";
import { type Client, Events } from "discord.js";
import { createDiscordClient, DiscordRest } from "./client.js";
import { type DiscordConfig, discordConfigSchema } from "./config.js";
import { toDiscordError } from "./errors.js";
import { attachListeners } from "./listeners.js";
import { DISCORD_MAX_TEXT, DiscordOutbound } from "./outbound.js";
import { DiscordReactions } from "./reactions.js";
import type { Identity } from "./ref.js";

const ID = "discord";
const LABEL = "Discord";

/** What Discord can do, as data (DESIGN §2.2 row Discord: clearAll, list). */
export const discordCapabilities: ChannelCapabilities = {
  chatTypes: ["direct", "group"],
  reactions: {
    clearAll: true, // `emoji: ""` / `clearAll: true` → DELETE …/{e}/@me for every reaction with me: true
    singleSlot: false, // a bot may hold many reactions on one message
    tapbackOnly: false,
    addOnly: false,
    list: true, // GET …/messages/{id} → reactions[] {emoji, count, me}
  },
  typing: true,
  inboundReactions: true,
  replies: true,
  threads: true,
  maxTextLength: DISCORD_MAX_TEXT,
};

/** The Discord channel plugin; the package's default export. */
export const discordChannel = defineChannel<DiscordConfig>({
  id: ID,
  apiVersion: CHORUS_API_VERSION,
  label: LABEL,
  capabilities: discordCapabilities,
  configSchema: discordConfigSchema,
  create: (ctx) => createDiscordInstance(ctx),
});

export default discordChannel;

/** One running Discord bot: the gateway WebSocket in, REST out, both through one discord.js Client. */
function createDiscordInstance(ctx: ChannelContext<DiscordConfig>): ChannelInstance {
  const { config } = ctx;
  let client: Client | undefined;
  let identity: Identity | undefined;
  let status: ChannelStatus = { state: "stopped" };
  const live = (): Client => {
    if (!client) throw new ChorusError("E_DISABLED", `${LABEL} is not started`);
    return client;
  };
  const who = (): Identity => {
    if (!identity) throw new ChorusError("E_DISABLED", `${LABEL} is not started`);
    return identity;
  };
  const rest = new DiscordRest(live);
  const outbound = new DiscordOutbound(rest, who);
  const reactions = new DiscordReactions(rest, (name) => {
    const found = client?.emojis.cache.find((e) => e.name === name);
    return found?.name ? { id: found.id, name: found.name, animated: found.animated ?? false } : undefined;
  });
  const guildAllowed = (guildId: string | null): boolean => {
    if (guildId === null || config.guilds === undefined) return true;
    const entry = config.guilds[guildId] ?? config.guilds["*"];
    return entry?.enabled === true;
  };

  const connect = async (): Promise<void> => {
    const next = createDiscordClient(config);
    client = next;
    attachListeners(next, { who: () => identity, emit: (e) => ctx.emit(e), guildAllowed, logger: ctx.logger });
    next.on(Events.ShardDisconnect, (event) => {
      status = { state: "degraded", detail: `gateway connection closed (${event.code}); reconnecting` };
    });
    next.on(Events.ShardReconnecting, () => {
      status = { state: "degraded", detail: "gateway connection lost; reconnecting" };
    });
    const running = () => {
      status = { state: "running", detail: `connected as ${next.user?.tag ?? "?"}` };
    };
    next.on(Events.ShardResume, running);
    next.on(Events.ShardReady, running);
    next.on(Events.Error, (error) => ctx.logger.warn({ err: error }, "discord: client error"));
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new ChorusError("E_PLATFORM", `Discord gateway sent no READY within ${config.readyTimeoutMs} ms`)),
        config.readyTimeoutMs,
      );
      next.once(Events.ClientReady, () => {
        clearTimeout(timer);
        resolve();
      });
    });
    await next.login(config.token);
    await ready;
    const user = next.user;
    if (!user) throw new ChorusError("E_PLATFORM", "Discord READY carried no bot user");
    identity = { channel: ID, accountId: ctx.accountId, botId: user.id, name: user.globalName ?? user.username };
    running();
  };

  return {
    async start() {
      status = { state: "starting" };
      try {
        await connect();
      } catch (error) {
        await client?.destroy();
        client = undefined;
        const reason = toDiscordError(error, "start");
        status = { state: "degraded", detail: reason.message };
        throw reason;
      }
    },
    async stop() {
      const current = client;
      client = undefined;
      identity = undefined;
      await current?.destroy();
      status = { state: "stopped" };
    },
    send: (conversation, message) => outbound.send(conversation, message),
    react: (ref: MessageRef, intent) => reactions.react(ref, intent),
    listReactions: (ref: MessageRef) => reactions.list(ref),
    setTyping: (conversation, on) => outbound.setTyping(conversation, on),
    resolveMessageRef: (conversation, messageId) => outbound.resolveMessageRef(conversation, messageId),
    status: () => status,
    identity: () => (identity ? { id: identity.botId, name: identity.name, isBot: true } : undefined),
  };
}

export { createDiscordClient, DiscordRest, discordIntents } from "./client.js";
export { type DiscordConfig, discordConfigSchema } from "./config.js";
export { type CustomEmojiLookup, type DiscordEmoji, emojiKey, emojiSegment, toDiscordEmoji } from "./emoji.js";
export { toDiscordError } from "./errors.js";
export { conversationOf, normaliseMessage, normaliseReaction } from "./inbound.js";
export { DISCORD_MAX_TEXT } from "./outbound.js";
