/**
 * Nextcloud Talk: a webhook bot (spreed's bot API, HMAC-signed both ways). Reactions are
 * add-only. Reading order: `config.ts` → `signing.ts` → `client.ts` → `inbound.ts` /
 * `normalize.ts` → `outbound.ts` → `reactions.ts`.
 */
import {
  CHORUS_API_VERSION,
  type ChannelCapabilities,
  type ChannelContext,
  type ChannelInstance,
  type ChannelStatus,
  defineChannel,
  type Participant,
} from "@chorus/core";
import { TalkClient } from "./client.js";
import { type NextcloudConfig, nextcloudConfigSchema } from "./config.js";
import { IdentityStore } from "./identity.js";
import { createWebhookHandler } from "./inbound.js";
import { TalkOutbound } from "./outbound.js";
import { ReactionStore } from "./reaction-store.js";
import { TalkReactions } from "./reactions.js";

const ID = "nextcloud";
const LABEL = "Nextcloud Talk";

/** What Nextcloud Talk can do for a bot, as data (DESIGN §2.2 row: addOnly). */
export const nextcloudCapabilities: ChannelCapabilities = {
  chatTypes: ["direct", "group"],
  reactions: {
    clearAll: false, // nothing can be removed by the bot through Chorus
    singleSlot: false, // several reactions per message
    tapbackOnly: false, // any single standard emoji
    addOnly: true, // add-only: remove, empty emoji and clearAll are refused by core
    list: false, // the reaction list endpoint needs user auth, bots have none
  },
  typing: false, // bots have no typing endpoint
  inboundReactions: true, // with the bot's `reaction` feature (Talk 21+)
  replies: true,
  threads: false,
  maxTextLength: 32_000,
};

/** The Nextcloud Talk channel plugin; the package's default export. */
export const nextcloudChannel = defineChannel<NextcloudConfig>({
  id: ID,
  apiVersion: CHORUS_API_VERSION,
  label: LABEL,
  capabilities: nextcloudCapabilities,
  configSchema: nextcloudConfigSchema,
  create: (ctx) => createNextcloudInstance(ctx),
});

export default nextcloudChannel;

/** One bot (account): its webhook route `/hooks/nextcloud/<accountId>`, its client and status. */
function createNextcloudInstance(ctx: ChannelContext<NextcloudConfig>): ChannelInstance {
  const path = `/${ctx.accountId}`;
  const webhook = ctx.http.url(path);
  const identity = new IdentityStore(
    {
      channel: ID,
      accountId: ctx.accountId,
      webhookUrl: ctx.config.webhookUrl ?? webhook,
      botName: ctx.config.botName,
    },
    ctx.stateDir,
  );
  const client = new TalkClient(ctx.config, ctx.signal);
  const store = new ReactionStore(ctx.stateDir);
  const outbound = new TalkOutbound(client, () => identity.current(), ctx.config.maxTextLength);
  const reactions = new TalkReactions(client, store);
  let running = false;
  let status: ChannelStatus = { state: "stopped" };

  ctx.http.route(
    "POST",
    path,
    createWebhookHandler({
      secret: ctx.config.secret,
      baseUrl: ctx.config.baseUrl,
      directConversations: ctx.config.directConversations,
      identity,
      running: () => running,
      emit: (event) => ctx.emit(event),
      logger: ctx.logger,
    }),
  );

  return {
    async start() {
      status = { state: "starting" };
      await identity.load();
      await store.load();
      running = true;
      // Talk has no "who am I" call for bots: the webhook URL is what the admin must register.
      ctx.logger.info(
        { webhook, botId: identity.current().botId, server: ctx.config.baseUrl },
        `nextcloud: install the bot with this URL: occ talk:bot:install <name> <secret> ${webhook} --feature webhook --feature response --feature reaction`,
      );
      status = { state: "running", detail: `webhook ${webhook}; bot ${identity.current().botId}` };
    },
    async stop() {
      running = false;
      status = { state: "stopped" };
    },
    send: (conversation, message) => outbound.send(conversation, message),
    react: (ref, intent) => reactions.react(ref, intent),
    // Talk has no typing indicator for bots (capabilities.typing is false): nothing to show.
    setTyping: async () => {},
    resolveMessageRef: (conversation, messageId) => outbound.resolveMessageRef(conversation, messageId),
    status: () => status,
    identity(): Participant | undefined {
      if (!running) return undefined;
      const who = identity.current();
      return { id: who.botId, ...(who.botName ? { name: who.botName } : {}), isBot: true };
    },
  };
}

export { BOT_API_PATH, type BotCall, TalkApiError, TalkClient } from "./client.js";
export { type NextcloudConfig, nextcloudConfigSchema } from "./config.js";
export { verifyWebhook } from "./inbound.js";
export { conversationOf, readNote, toInboundEvent } from "./normalize.js";
export { botActorId, newRandom, sign, signatureMatches } from "./signing.js";
export type * from "./wire.js";
