import { BotReactionRecord, Redactor, secretsOf } from "@chorus/channel-kit";
import type { ChannelContext, ChannelInstance, ChannelStatus, Participant } from "@chorus/core";
import { createTalkClient } from "./client.js";
import { NEXTCLOUD_SECRET_KEYS, type NextcloudConfig } from "./config.js";
import { NextcloudDav } from "./dav.js";
import { createDownload } from "./download.js";
import { BotIdentity } from "./identity.js";
import { importLegacyState } from "./legacy.js";
import { createOutbound } from "./outbound.js";
import { ReactionEventIds } from "./reaction-events.js";
import { createReactions } from "./reactions.js";
import { createNextcloudReceiver } from "./receive.js";
import { createUploads } from "./uploads.js";
import { createWebhookHandler } from "./webhook.js";

/** The plugin id. */
export const NEXTCLOUD_ID = "nextcloud";
/** The plugin's human name. */
export const NEXTCLOUD_LABEL = "Nextcloud Talk";

/** One bot (account): its webhook route `/hooks/nextcloud/<accountId>`, its client and status. */
export function createNextcloudInstance(ctx: ChannelContext<NextcloudConfig>): ChannelInstance {
  const { config, store } = ctx;
  const redactor = new Redactor(secretsOf(config, NEXTCLOUD_SECRET_KEYS));
  const logger = redactor.logger(ctx.logger);
  const path = `/${ctx.accountId}`;
  const webhook = ctx.http.url(path);
  const identity = new BotIdentity(
    {
      channel: NEXTCLOUD_ID,
      accountId: ctx.accountId,
      webhookUrl: config.webhookUrl ?? webhook,
      botName: config.botName,
    },
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
  // The bot's files account, when configured: uploads and downloads over WebDAV (the bot API has none).
  const files = config.files;
  const dav = files ? new NextcloudDav({ config, files, signal: ctx.signal, redactor }) : undefined;
  const uploads = dav && files ? createUploads(dav, config, files, { signal: ctx.signal, redactor }) : undefined;
  const outbound = createOutbound(client, () => identity.scope(), config.maxTextLength, uploads);
  const reactions = createReactions(client, new BotReactionRecord(store));
  let running = false;
  let status: ChannelStatus = { state: "stopped" };
  // Verified hooks → `ctx.emit`; an event whose commit failed is kept and emitted again (Talk never retries).
  const receiver = createNextcloudReceiver({
    directConversations: config.directConversations,
    filesActor: files ? `users/${files.user}` : undefined,
    identity,
    reactionIds: new ReactionEventIds(store),
    emit: (event) => ctx.emit(event),
    logger,
    signal: ctx.signal,
  });
  // Registered at create, before start: the gateway serves it under /hooks/nextcloud/.
  ctx.http.route(
    "POST",
    path,
    createWebhookHandler({ secret: config.secret, baseUrl: config.baseUrl, running: () => running, receiver, logger }),
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
    download: createDownload(dav, ctx.signal),
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
