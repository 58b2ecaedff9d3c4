import { Redactor, secretsOf } from "@chorus/channel-kit";
import {
  type ChannelContext,
  type ChannelInstance,
  type ChannelStatus,
  ChorusError,
  type RefScope,
} from "@chorus/core";
import { FeishuApi } from "./api.js";
import { FEISHU_SECRET_KEYS, type FeishuConfig, openApiBase } from "./config.js";
import { FeishuDirectory } from "./directory.js";
import { createDownload } from "./download.js";
import { createFeishuHttpClient, sdkHttpInstance } from "./http.js";
import type { InboundContext } from "./inbound.js";
import { LongConnection } from "./long-connection.js";
import { createMediaMessages } from "./media-send.js";
import { createOutbound } from "./outbound.js";
import { createReactions } from "./reactions.js";
import { createReceive } from "./receive.js";
import { sdkLogger } from "./sdk-logger.js";
import { TokenCache } from "./token-cache.js";
import { Ffmpeg } from "./transcode.js";
import { FeishuUploads } from "./upload.js";
import { createWebhookHandler, webhookPath } from "./webhook.js";
import type { FeishuBotInfo } from "./wire.js";

/** One running Feishu / Lark app: wires the clients, the transport and its receiver, outbound and reactions. */
export function createFeishuInstance(ctx: ChannelContext<FeishuConfig>): ChannelInstance {
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
  // Media: uploads and downloads go around the SDK (streamed bodies) with the tenant token it holds.
  const mediumMessage = createMediaMessages(new FeishuUploads(http, api), new Ffmpeg(config.ffmpeg, logger), logger);
  const download = createDownload(api, domain);
  let bot: FeishuBotInfo | undefined;
  let running = false;
  let status: ChannelStatus = { state: "stopped" };

  const scope = (): RefScope => {
    if (!bot) throw new ChorusError("E_DISABLED", "Feishu is not started");
    return { channel: "feishu", accountId: ctx.accountId, botId: bot.open_id };
  };
  const context = (): InboundContext | undefined =>
    running && bot ? { scope: scope(), appId: config.appId, directory, store: ctx.store } : undefined;
  // Both transports hand every event to one receiver; it decides whether Feishu is acknowledged.
  const dispatcher = createReceive({ context, emit: (event) => ctx.emit(event), logger, signal: ctx.signal }, sdkLog);
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
    ...createOutbound(api, directory, ctx.store, scope, logger, mediumMessage),
    ...createReactions(api, config.appId),
    download: (attachment, options) =>
      download(attachment, options).catch((error: unknown) => {
        throw redactor.error(error);
      }),
    status() {
      if (status.state !== "running") return redactor.status(status);
      const degraded =
        connection?.status() ?? (unreachable ? { state: "degraded" as const, detail: unreachable } : undefined);
      return redactor.status(degraded ?? status);
    },
    identity: () => (bot ? { id: bot.open_id, name: bot.app_name, isBot: true } : undefined),
  };
}
