/**
 * Telegram, through grammY: the plugin object the gateway imports and the wiring of one running
 * account. Each concern lives in its own file: `config.ts` → `api.ts` (client, retries, errors)
 * → `inbound.ts` (+ `poller.ts`, `webhook.ts`) → `outbound.ts` → `reactions.ts`.
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
  toChorusError,
} from "@chorus/core";
import { createTelegramApi } from "./api.js";
import { ChatAliases } from "./chat-aliases.js";
import { type TelegramConfig, telegramConfigSchema } from "./config.js";
import { ALLOWED_UPDATES } from "./inbound.js";
import { TELEGRAM_MAX_TEXT, TelegramOutbound } from "./outbound.js";
import { Poller } from "./poller.js";
import { BotReactionStore } from "./reaction-store.js";
import { TelegramReactions } from "./reactions.js";
import type { Identity } from "./ref.js";
import { SentMessages } from "./sent-messages.js";
import { UpdateSink } from "./update-sink.js";
import { telegramVocabulary } from "./vocabulary.js";
import { createWebhookHandler } from "./webhook.js";

const ID = "telegram";
const LABEL = "Telegram";

/** What Telegram can do, as data (DESIGN §2.2 row Telegram: clearAll, singleSlot, 73-emoji vocabulary). */
export const telegramCapabilities: ChannelCapabilities = {
  chatTypes: ["direct", "group"],
  reactions: {
    clearAll: true, // `emoji: ""` / `clearAll: true` → setMessageReaction(reaction: [])
    singleSlot: true, // a bot holds one reaction per message; a new one replaces it
    tapbackOnly: false,
    addOnly: false,
    list: false, // the Bot API cannot list reactions
    vocabulary: telegramVocabulary.names,
  },
  typing: true,
  inboundReactions: true,
  replies: true,
  threads: true, // forum topics
  maxTextLength: TELEGRAM_MAX_TEXT,
};

/** The Telegram channel plugin; the package's default export. */
export const telegramChannel = defineChannel<TelegramConfig>({
  id: ID,
  apiVersion: CHORUS_API_VERSION,
  label: LABEL,
  capabilities: telegramCapabilities,
  vocabulary: telegramVocabulary,
  configSchema: telegramConfigSchema,
  create: (ctx) => createTelegramInstance(ctx),
});

export default telegramChannel;

/** One running Telegram bot account: long poll or webhook in, grammY API out. */
function createTelegramInstance(ctx: ChannelContext<TelegramConfig>): ChannelInstance {
  const { config } = ctx;
  const api = createTelegramApi(config, ctx.signal);
  const aliases = new ChatAliases(ctx.stateDir);
  const sent = new SentMessages();
  let identity: Identity | undefined;
  let status: ChannelStatus = { state: "stopped" };
  const who = (): Identity => {
    if (!identity) throw new ChorusError("E_DISABLED", `${LABEL} is not started`);
    return identity;
  };
  const sink = new UpdateSink(who, aliases, sent, (event) => ctx.emit(event), ctx.logger);
  const outbound = new TelegramOutbound(api, who, aliases, sent);
  const reactions = new TelegramReactions(
    api,
    new BotReactionStore(ctx.stateDir),
    config.chatInfoTtlMs,
    () => config.bigReactions,
  );
  const poller = new Poller(api, config, sink, ctx.logger, ctx.signal);
  const webhookPath = `/${ctx.accountId}`;
  if (config.webhookUrl !== undefined && config.secretToken !== undefined) {
    // Registered at create (before start); answers 503 until start() knows who the bot is.
    ctx.http.route(
      "POST",
      webhookPath,
      createWebhookHandler({
        secretToken: config.secretToken,
        sink: () => (identity ? sink : undefined),
        logger: ctx.logger,
      }),
    );
  }

  return {
    async start() {
      status = { state: "starting" };
      try {
        await aliases.load();
        const me = await api.getMe();
        identity = { channel: ID, accountId: ctx.accountId, botId: me.id, username: me.username, name: me.first_name };
        if (config.webhookUrl !== undefined) {
          await api.setWebhook(config.webhookUrl, {
            allowed_updates: [...ALLOWED_UPDATES],
            ...(config.secretToken !== undefined ? { secret_token: config.secretToken } : {}),
          });
        } else {
          // A webhook left behind makes getUpdates fail with 409; polling needs it gone.
          await api.deleteWebhook();
          poller.start();
        }
      } catch (error) {
        const reason = toChorusError(error, `${LABEL} could not start`);
        status = { state: "degraded", detail: reason.message };
        throw reason;
      }
      const how =
        config.webhookUrl !== undefined
          ? `webhook ${config.webhookUrl} → ${ctx.http.url(webhookPath)}`
          : "long polling";
      status = { state: "running", detail: `connected as @${identity.username} (${how})` };
    },
    async stop() {
      await poller.stop();
      identity = undefined;
      status = { state: "stopped" };
    },
    send: (conversation, message) => outbound.send(conversation, message),
    react: (ref: MessageRef, intent) => reactions.react(ref, intent),
    setTyping: (conversation, on) => outbound.setTyping(conversation, on),
    resolveMessageRef: (conversation, messageId) => outbound.resolveMessageRef(conversation, messageId),
    status: () => (status.state === "running" ? (poller.status() ?? status) : status),
    identity: () => (identity ? { id: String(identity.botId), name: identity.name, isBot: true } : undefined),
  };
}

export { createTelegramApi } from "./api.js";
export { type TelegramConfig, telegramConfigSchema } from "./config.js";
export { TelegramApiError, toTelegramError } from "./errors.js";
export { ALLOWED_UPDATES, normaliseUpdate } from "./inbound.js";
export { mentionFacts } from "./mentions.js";
export {
  reactionKey,
  TELEGRAM_REACTION_EMOJI,
  type TelegramReactionEmoji,
  telegramVocabulary,
  toTelegramReaction,
} from "./vocabulary.js";
export { SECRET_HEADER, secretMatches } from "./webhook.js";
