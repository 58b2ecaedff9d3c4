/**
 * Nextcloud Talk: a webhook bot (spreed's bot API, HMAC-signed both ways). Reactions are
 * add-only. Reading order: `config.ts` → `signing.ts` → `client.ts` → `webhook.ts` →
 * `inbound.ts` (with `note.ts`) → `outbound.ts` → `reactions.ts`; `identity.ts` and `legacy.ts`
 * for what is kept in the store.
 */
import { BotReactionRecord, Redactor, secretsOf } from "@chorus/channel-kit";
import {
  CHORUS_API_VERSION,
  type ChannelCapabilities,
  type ChannelContext,
  type ChannelInstance,
  type ChannelStatus,
  defineChannel,
  type Participant,
} from "@chorus/core";
import { createTalkClient } from "./client.js";
import { NEXTCLOUD_SECRET_KEYS, type NextcloudConfig, nextcloudConfigSchema } from "./config.js";
import { BotIdentity } from "./identity.js";
import { importLegacyState } from "./legacy.js";
import { TalkOutbound } from "./outbound.js";
import { probeNextcloud } from "./probe.js";
import { ReactionEventIds } from "./reaction-events.js";
import { TalkReactions } from "./reactions.js";
import { createWebhookHandler } from "./webhook.js";

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
  secretKeys: NEXTCLOUD_SECRET_KEYS,
  create: (ctx) => createNextcloudInstance(ctx),
  probe: (ctx) => probeNextcloud(ctx),
  // A webhook bot: Talk posts to any gateway, so the account runs on every one.
  holdsConnection: () => false,
});

export default nextcloudChannel;

/** One bot (account): its webhook route `/hooks/nextcloud/<accountId>`, its client and status. */
function createNextcloudInstance(ctx: ChannelContext<NextcloudConfig>): ChannelInstance {
  const { config, store } = ctx;
  const redactor = new Redactor(secretsOf(config, NEXTCLOUD_SECRET_KEYS));
  const logger = redactor.logger(ctx.logger);
  const path = `/${ctx.accountId}`;
  const webhook = ctx.http.url(path);
  const identity = new BotIdentity(
    { channel: ID, accountId: ctx.accountId, webhookUrl: config.webhookUrl ?? webhook, botName: config.botName },
    store,
  );
  /** Why the last request never got an answer from Talk; undefined once one did. */
  let unreachable: string | undefined;
  const client = createTalkClient({
    config,
    signal: ctx.signal,
    redactor,
    onReachability: (reachable, error) => {
      unreachable = reachable ? undefined : (error?.message ?? "Nextcloud Talk unreachable");
    },
  });
  const outbound = new TalkOutbound(client, () => identity.scope(), config.maxTextLength);
  const reactions = new TalkReactions(client, new BotReactionRecord(store));
  let running = false;
  let status: ChannelStatus = { state: "stopped" };

  ctx.http.route(
    "POST",
    path,
    createWebhookHandler({
      secret: config.secret,
      baseUrl: config.baseUrl,
      directConversations: config.directConversations,
      identity,
      reactionIds: new ReactionEventIds(store),
      running: () => running,
      emit: (event) => ctx.emit(event),
      logger,
    }),
  );

  return {
    async start() {
      status = { state: "starting" };
      try {
        await importLegacyState(store, logger, ctx.stateDir);
        await identity.load();
      } catch (error) {
        const reason = redactor.error(error);
        status = { state: "degraded", detail: reason.message };
        throw reason;
      }
      running = true;
      const botId = identity.scope().botId;
      // Talk has no "who am I" call for bots: the webhook URL is what the admin must register.
      logger.info(
        { webhook, botId, server: config.baseUrl },
        `nextcloud: install the bot with this URL: occ talk:bot:install <name> <secret> ${webhook} --feature webhook --feature response --feature reaction`,
      );
      status = { state: "running", detail: `webhook ${webhook}; bot ${botId}` };
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
    status: () =>
      redactor.status(
        status.state === "running" && unreachable !== undefined
          ? { state: "degraded", detail: `${unreachable}; webhook ${webhook}` }
          : status,
      ),
    identity(): Participant | undefined {
      if (!running) return undefined;
      const name = identity.botName;
      return { id: identity.scope().botId, ...(name ? { name } : {}), isBot: true };
    },
  };
}

export { BOT_API_PATH, createTalkClient, signedPart, type TalkClientOptions } from "./client.js";
export { NEXTCLOUD_SECRET_KEYS, type NextcloudConfig, nextcloudConfigSchema } from "./config.js";
export { conversationOf, type NormalizedHook, normalizeHook, type ReactionOccurrence } from "./inbound.js";
export { readNote } from "./note.js";
export { botActorId, newRandom, sign, signatureMatches } from "./signing.js";
export { verifyWebhook } from "./webhook.js";
export type * from "./wire.js";
