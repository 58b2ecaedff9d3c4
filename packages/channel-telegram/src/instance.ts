import { Redactor, secretsOf } from "@chorus/channel-kit";
import {
  type ChannelContext,
  type ChannelInstance,
  type ChannelStatus,
  ChorusError,
  type MessageRef,
  toChorusError,
} from "@chorus/core";
import { AlbumBuffer } from "./album-buffer.js";
import { createTelegramApi } from "./api.js";
import { ChatAliases } from "./chat-aliases.js";
import { chatReactionCache } from "./chat-reactions.js";
import { TELEGRAM_SECRET_KEYS, type TelegramConfig } from "./config.js";
import { createDownload } from "./download.js";
import { ALLOWED_UPDATES } from "./inbound.js";
import { importLegacyState } from "./legacy-state.js";
import { createOutbound } from "./outbound.js";
import { Poller } from "./poller.js";
import { createReactions } from "./reactions.js";
import { createTelegramReceiver, type RunningBot } from "./receive.js";
import { createWebhookHandler } from "./webhook.js";

/** The plugin id. */
export const TELEGRAM_ID = "telegram";
/** The plugin's human name. */
export const TELEGRAM_LABEL = "Telegram";

/**
 * One running Telegram bot account: long poll or webhook in, grammY API out. Everything it
 * reports (errors, status, log lines) passes through a redactor that knows the bot token and the
 * webhook secret.
 */
export function createTelegramInstance(ctx: ChannelContext<TelegramConfig>): ChannelInstance {
  const { config } = ctx;
  const redactor = new Redactor(secretsOf(config, TELEGRAM_SECRET_KEYS));
  const logger = redactor.logger(ctx.logger);
  const api = createTelegramApi(config, { signal: ctx.signal, redactor });
  const aliases = new ChatAliases(ctx.store);
  let running: RunningBot | undefined;
  let status: ChannelStatus = { state: "stopped" };
  const who = (): RunningBot => {
    if (!running) throw new ChorusError("E_DISABLED", `${TELEGRAM_LABEL} is not started`);
    return running;
  };
  // Updates from the long poll or the webhook, to `ctx.emit`; acknowledged only once committed.
  const receiver = createTelegramReceiver({
    running: () => running,
    aliases,
    emit: (event) => ctx.emit(event),
    logger,
    signal: ctx.signal,
  });
  // Webhook album items wait in the store; their album is emitted from there until committed.
  const albums = new AlbumBuffer({
    store: ctx.store,
    receiver: createTelegramReceiver({
      running: () => running,
      aliases,
      emit: (event) => ctx.emit(event),
      logger,
      signal: ctx.signal,
      redelivery: "keep",
    }),
    windowMs: () => config.albumWindowMs,
    logger,
  });
  const outbound = createOutbound(api, () => who().scope, aliases);
  const download = createDownload(api, config);
  const allowed = chatReactionCache(api, config.chatInfoTtlMs);
  const reactions = createReactions(api, ctx.store, allowed, () => config.bigReactions);
  const poller = new Poller(api, config, receiver, logger, ctx.signal);
  const webhookPath = `/${ctx.accountId}`;
  if (config.webhookUrl !== undefined && config.secretToken !== undefined) {
    // Registered at create (before start); answers 503 until start() knows who the bot is.
    const handler = createWebhookHandler({
      secretToken: config.secretToken,
      running: () => running !== undefined,
      receiver,
      albums,
      logger,
    });
    ctx.http.route("POST", webhookPath, handler);
  }
  /** Errors leave the instance without secrets. */
  const redacted =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await call(...args);
      } catch (error) {
        throw redactor.error(error);
      }
    };

  return {
    async start() {
      status = { state: "starting" };
      try {
        await importLegacyState(ctx.store, logger, ctx.stateDir);
        await aliases.load();
        const me = await api.getMe();
        running = { scope: { channel: TELEGRAM_ID, accountId: ctx.accountId, botId: String(me.id) }, bot: me };
        // Album items an earlier run kept in the store (webhook mode) go to the gateway now.
        await albums.resume();
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
        const reason = redactor.error(toChorusError(error, `${TELEGRAM_LABEL} could not start`));
        status = { state: "degraded", detail: reason.message };
        albums.stop();
        running = undefined;
        throw reason;
      }
      const how =
        config.webhookUrl !== undefined
          ? `webhook ${config.webhookUrl} → ${ctx.http.url(webhookPath)}`
          : "long polling";
      status = { state: "running", detail: `connected as @${running.bot.username} (${how})` };
    },
    async stop() {
      albums.stop();
      await poller.stop();
      running = undefined;
      status = { state: "stopped" };
    },
    send: redacted((conversation, message) => outbound.send(conversation, message)),
    react: redacted((ref: MessageRef, intent) => reactions.react(ref, intent)),
    setTyping: redacted((conversation, on) => outbound.setTyping(conversation, on)),
    download: redacted((attachment, options) => download(attachment, options)),
    resolveMessageRef: redacted((conversation, messageId) => outbound.resolveMessageRef(conversation, messageId)),
    status: () => redactor.status(status.state === "running" ? (poller.status() ?? status) : status),
    identity: () => (running ? { id: running.scope.botId, name: running.bot.first_name, isBot: true } : undefined),
  };
}
