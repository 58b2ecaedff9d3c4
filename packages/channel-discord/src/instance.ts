import { Redactor, secretsOf } from "@chorus/channel-kit";
import { type ChannelContext, type ChannelInstance, ChorusError, type Participant, type RefScope } from "@chorus/core";
import type { Client } from "discord.js";
import { DiscordRest } from "./client.js";
import { DISCORD_SECRET_KEYS, type DiscordConfig } from "./config.js";
import { DiscordConnection } from "./connection.js";
import { createDownload } from "./media.js";
import { createOutbound } from "./outbound.js";
import { createReactions } from "./reactions.js";
import { attachReceiver, createDiscordReceiver } from "./receive.js";

/** The channel id (`channels.discord`). */
export const DISCORD_ID = "discord";
/** The channel's name as people read it. */
export const DISCORD_LABEL = "Discord";

/** One running Discord bot: the gateway WebSocket in, REST out, both through one discord.js Client. */
export function createDiscordInstance(ctx: ChannelContext<DiscordConfig>): ChannelInstance {
  const { config } = ctx;
  const redactor = new Redactor(secretsOf(config, DISCORD_SECRET_KEYS));
  // discord.js drops a leading "Bot " from the token; the bare token is the secret too.
  redactor.add(config.token.replace(/^(Bot|Bearer)\s*/i, ""));
  const logger = redactor.logger(ctx.logger);
  let scope: RefScope | undefined;
  let bot: Participant | undefined;
  const receiver = createDiscordReceiver({
    scope: () => scope,
    guildAllowed: (guildId) => {
      if (guildId === null || config.guilds === undefined) return true;
      const entry = config.guilds[guildId] ?? config.guilds["*"];
      return entry?.enabled === true;
    },
    emit: (event) => ctx.emit(event),
    logger,
    signal: ctx.signal,
  });
  const connection = new DiscordConnection({
    config,
    logger,
    redactor,
    attach: (client, current) => attachReceiver(client, receiver, current, logger),
    ready: (user) => {
      scope = { channel: DISCORD_ID, accountId: ctx.accountId, botId: user.id };
      bot = { id: user.id, name: user.globalName ?? user.username, isBot: true };
    },
  });
  const notConnected = () => {
    const { state, detail } = connection.status();
    if (state === "stopped") return new ChorusError("E_DISABLED", "Discord is not started");
    return new ChorusError("E_PLATFORM", `Discord is not connected${detail ? `: ${detail}` : ""}`, { retryable: true });
  };
  const live = (): Client => {
    const client = connection.client;
    if (!client) throw notConnected();
    return client;
  };
  const refScope = (): RefScope => {
    if (!scope) throw notConnected();
    return scope;
  };
  const rest = new DiscordRest(live, redactor);

  return {
    async start() {
      await connection.open();
    },
    async stop() {
      await connection.close();
      scope = undefined;
      bot = undefined;
    },
    ...createOutbound(rest, refScope),
    download: createDownload(rest, config),
    ...createReactions(rest, (name) => {
      const found = connection.client?.emojis.cache.find((e) => e.name === name);
      return found?.name ? { id: found.id, name: found.name, animated: found.animated ?? false } : undefined;
    }),
    status: () => connection.status(),
    identity: () => bot,
  };
}
