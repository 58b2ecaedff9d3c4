/**
 * Feishu / Lark. Read this file first: the plugin object the gateway imports and the wiring of
 * one running app. Then one idea per file: `config.ts` → `errors.ts` → `http.ts` (the kit's
 * client under the SDK) → `api.ts` → `long-connection.ts` / `webhook.ts` → `dispatcher.ts` →
 * `inbound.ts` (with `content.ts`, `directory.ts`) → `outbound.ts` → `reactions.ts`
 * (with `vocabulary.ts`), and the fake Feishu every test runs against, in `testing/`.
 */
import { Redactor, secretsOf } from "@chorus/channel-kit";
import {
  CHORUS_API_VERSION,
  type ChannelCapabilities,
  type ChannelContext,
  type ChannelInstance,
  type ChannelStatus,
  ChorusError,
  defineChannel,
  type RefScope,
} from "@chorus/core";
import { FeishuApi } from "./api.js";
import { FEISHU_SECRET_KEYS, type FeishuConfig, feishuConfigSchema, openApiBase } from "./config.js";
import { FeishuDirectory } from "./directory.js";
import { createDispatcher } from "./dispatcher.js";
import { createFeishuHttpClient, sdkHttpInstance } from "./http.js";
import type { InboundContext } from "./inbound.js";
import { LongConnection } from "./long-connection.js";
import { createOutbound, MAX_TEXT_LENGTH } from "./outbound.js";
import { probeFeishu } from "./probe.js";
import { createReactions } from "./reactions.js";
import { sdkLogger } from "./sdk-logger.js";
import { TokenCache } from "./token-cache.js";
import { feishuVocabulary } from "./vocabulary.js";
import { createWebhookHandler, webhookPath } from "./webhook.js";
import type { FeishuBotInfo } from "./wire.js";

/** What Feishu / Lark can do, as data: the agent's tool schema, core's rules and the contract suite read it. */
export const feishuCapabilities: ChannelCapabilities = {
  chatTypes: ["direct", "group"],
  reactions: {
    clearAll: "explicit", // an empty emoji is refused; clearAll: true removes every reaction of the bot
    singleSlot: false, // the bot may hold several emoji_types on one message
    tapbackOnly: false,
    addOnly: false,
    list: true, // Feishu lists every reaction with its operator
    vocabulary: feishuVocabulary.names,
  },
  typing: false, // Feishu has no typing indicator for bots
  inboundReactions: true,
  replies: true,
  threads: true, // topic threads are conversations of their own
  maxTextLength: MAX_TEXT_LENGTH,
};

/** The Feishu / Lark channel plugin; the package's default export. */
export const feishuChannel = defineChannel<FeishuConfig>({
  id: "feishu",
  apiVersion: CHORUS_API_VERSION,
  label: "Feishu",
  capabilities: feishuCapabilities,
  vocabulary: feishuVocabulary,
  configSchema: feishuConfigSchema,
  secretKeys: FEISHU_SECRET_KEYS,
  create: (ctx) => createFeishuInstance(ctx),
  probe: (ctx) => probeFeishu(ctx),
  // The long connection is one per app; webhooks reach any gateway.
  holdsConnection: (config) => config.mode === "websocket",
});

export default feishuChannel;

function createFeishuInstance(ctx: ChannelContext<FeishuConfig>): ChannelInstance {
  const { config } = ctx;
  // Every log line, error and status detail of this app passes the redactor first.
  const redactor = new Redactor(secretsOf(config, FEISHU_SECRET_KEYS));
  const logger = redactor.logger(ctx.logger);
  const domain = openApiBase(config);
  /** Why Feishu cannot be reached right now, told by the HTTP client after each attempt. */
  let unreachable: string | undefined;
  const http = createFeishuHttpClient(config, domain, {
    signal: ctx.signal,
    redactor,
    onReachability: (reachable, error) => {
      unreachable = reachable ? undefined : error?.message;
    },
  });
  const sdkHttp = sdkHttpInstance(http, domain);
  const tokens = new TokenCache(redactor);
  let connection: LongConnection | undefined;
  const sdkLog = sdkLogger(logger, (problem) => connection?.noteProblem(problem));
  const api = new FeishuApi({ appId: config.appId, appSecret: config.appSecret, domain }, sdkHttp, tokens, sdkLog);
  const directory = new FeishuDirectory(api, config.appId, config.lookupTtlMs);
  let bot: FeishuBotInfo | undefined;
  let running = false;
  let status: ChannelStatus = { state: "stopped" };

  const scope = (): RefScope => {
    if (!bot) throw new ChorusError("E_DISABLED", "Feishu is not started");
    return { channel: "feishu", accountId: ctx.accountId, botId: bot.open_id };
  };
  const context = (): InboundContext | undefined =>
    running && bot ? { scope: scope(), appId: config.appId, directory, store: ctx.store } : undefined;
  const dispatcher = createDispatcher({ context, emit: (event) => ctx.emit(event), logger }, sdkLog);
  // Routes are registered at create, before start; only webhook mode listens at all.
  if (config.mode === "webhook") {
    const events = () => (context() ? dispatcher : undefined);
    ctx.http.route("POST", webhookPath(ctx.accountId), createWebhookHandler(config, events, logger));
  }

  const stopConnection = () => {
    connection?.stop();
    connection = undefined;
  };

  return {
    async start() {
      status = { state: "starting" };
      try {
        // The tenant token (the SDK fetches it) and the bot's open_id, which its mentions carry.
        bot = await api.botInfo();
        if (!bot?.open_id) {
          throw new ChorusError("E_AUTH", "Feishu says this app has no bot", {
            hint: "Enable the bot ability (developer console → Features → Bot) and publish a new version.",
          });
        }
        running = true;
        if (config.mode === "websocket") {
          connection = new LongConnection({
            appId: config.appId,
            appSecret: config.appSecret,
            domain,
            http: sdkHttp,
            logger: sdkLog,
            dispatcher,
            timeoutMs: config.timeoutMs,
            reconnectMinMs: config.reconnectMinMs,
            reconnectMaxMs: config.reconnectMaxMs,
          });
          await connection.start();
        }
      } catch (error) {
        running = false;
        stopConnection();
        const reason = redactor.error(error);
        status = { state: "degraded", detail: reason.message };
        throw reason;
      }
      const via =
        config.mode === "websocket" ? "long connection" : `webhook ${ctx.http.url(webhookPath(ctx.accountId))}`;
      status = { state: "running", detail: `connected as ${bot.app_name} (${via})` };
    },
    async stop() {
      running = false;
      stopConnection();
      status = { state: "stopped" };
    },
    ...createOutbound(api, directory, ctx.store, scope, logger),
    ...createReactions(api, config.appId),
    status() {
      if (status.state !== "running") return redactor.status(status);
      const degraded =
        connection?.status() ?? (unreachable ? { state: "degraded" as const, detail: unreachable } : undefined);
      return redactor.status(degraded ?? status);
    },
    identity: () => (bot ? { id: bot.open_id, name: bot.app_name, isBot: true } : undefined),
  };
}

export { type FeishuConfig, feishuConfigSchema, openApiBase } from "./config.js";
export { decryptEvent, eventSignature } from "./crypto.js";
export { EMOJI_OF_TYPE, emojiOfType, FEISHU_EMOJI_TYPES, feishuVocabulary } from "./vocabulary.js";
