import { BotReactionRecord, Redactor, secretsOf } from "@chorus/channel-kit";
import type { ChannelContext, ChannelInstance, Participant, RefScope } from "@chorus/core";
import { e164Of, handleId } from "./addresses.js";
import { BlueBubblesClient } from "./client.js";
import { IMESSAGE_SECRET_KEYS, type IMessageConfig } from "./config.js";
import { Connection } from "./connection.js";
import { createDownload } from "./download.js";
import type { ServerHealth } from "./health.js";
import { importLegacyState } from "./legacy-state.js";
import { createOutbound } from "./outbound.js";
import { OwnMessages } from "./own-messages.js";
import { createReactions } from "./reactions.js";
import { createIMessageReceiver } from "./receive.js";
import { loadWebhookSecret, webhookUrlWithSecret } from "./secret.js";
import { createWebhookHandler } from "./webhook.js";

/** The plugin id. */
export const IMESSAGE_ID = "imessage";

/** An iMessage instance plus what `chorus doctor` can ask it. */
export interface IMessageInstance extends ChannelInstance {
  /** The last server check: reachable, password, Private API, webhook (undefined before start). */
  health(): ServerHealth | undefined;
  /** Checks the server again now (and registers the webhook when missing). */
  recheck(): Promise<ServerHealth | undefined>;
}

/**
 * One BlueBubbles server (account): its webhook route `/hooks/imessage/<accountId>`, client,
 * state in `ctx.store` and status. Every log line, status and error passes the redactor, which
 * knows the password and the webhook secret.
 */
export function createIMessageInstance(context: ChannelContext<IMessageConfig>): IMessageInstance {
  const redactor = new Redactor(secretsOf(context.config, IMESSAGE_SECRET_KEYS));
  const ctx = { ...context, logger: redactor.logger(context.logger) };
  const path = `/${ctx.accountId}`;
  const shownUrl = ctx.config.webhookUrl ?? ctx.http.url(path);
  let connection: Connection | undefined;
  const client = new BlueBubblesClient(ctx.config, {
    signal: ctx.signal,
    redactor,
    onReachability: (reachable) => connection?.reachability(reachable),
  });
  const botAddress = () => ctx.config.address ?? connection?.health()?.account;
  // iMessage refs say `fromBot` themselves; the bot's handle is the scope's id where it is known.
  const scope = (): RefScope => {
    const address = botAddress();
    return { channel: IMESSAGE_ID, accountId: ctx.accountId, botId: address ? handleId(address) : "" };
  };
  const own = new OwnMessages(ctx.store);
  const outbound = createOutbound(client, ctx.config, scope, own, () => connection?.privateApi() ?? false);
  const reactions = createReactions(client, new BotReactionRecord(ctx.store));
  const files = createDownload(client, ctx.signal);
  const redacted = <T>(work: Promise<T>): Promise<T> =>
    work.catch((error: unknown) => {
      throw redactor.error(error);
    });
  let secret: string | undefined;
  let running = false;

  // Webhook bodies → `ctx.emit`; an event whose commit failed is kept and emitted again (BlueBubbles never retries).
  const receiver = createIMessageReceiver({
    scope,
    own,
    client,
    emit: (event) => ctx.emit(event),
    logger: ctx.logger,
    signal: ctx.signal,
  });
  // Registered at create, before start: the gateway serves it under /hooks/imessage/.
  ctx.http.route(
    "POST",
    path,
    createWebhookHandler({ secret: () => secret, running: () => running, receiver, logger: ctx.logger }),
  );

  return {
    async start() {
      await importLegacyState(ctx.store, ctx.logger, ctx.stateDir);
      secret = await loadWebhookSecret(ctx.store, ctx.config.webhookSecret);
      redactor.add(secret);
      connection = new Connection({
        client,
        webhook: { url: webhookUrlWithSecret(shownUrl, secret), register: ctx.config.registerWebhook },
        shownUrl,
        reconnectMinMs: ctx.config.reconnectMinMs,
        reconnectMaxMs: ctx.config.reconnectMaxMs,
        logger: ctx.logger,
      });
      running = true;
      try {
        await redacted(connection.start());
      } catch (error) {
        running = false;
        connection.stop();
        throw error;
      }
      if (!ctx.config.registerWebhook) {
        ctx.logger.info(
          { webhook: shownUrl },
          "imessage: add this webhook in BlueBubbles (events new-message, updated-message), with ?secret=<webhookSecret>",
        );
      }
    },
    async stop() {
      running = false;
      connection?.stop();
    },
    send: (conversation, message) => redacted(outbound.send(conversation, message)),
    react: (ref, intent) => redacted(reactions.react(ref, intent)),
    download: (attachment, options) => redacted(files.download(attachment, options)),
    setTyping: (conversation, on) => redacted(outbound.setTyping(conversation, on)),
    resolveMessageRef: (conversation, messageId) => redacted(outbound.resolveMessageRef(conversation, messageId)),
    status: () => redactor.status(connection?.status() ?? { state: "stopped" }),
    identity(): Participant | undefined {
      const address = botAddress();
      if (!running || !address) return undefined;
      const e164 = e164Of(address);
      return { id: handleId(address), ...(e164 ? { e164 } : {}), isBot: true };
    },
    health: () => connection?.health(),
    async recheck() {
      await connection?.check();
      return connection?.health();
    },
  };
}
