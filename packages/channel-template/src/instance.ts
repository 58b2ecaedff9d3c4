import { BotReactionRecord, Redactor, secretsOf } from "@chorus/channel-kit";
import {
  type ChannelContext,
  type ChannelInstance,
  type ChannelStatus,
  ChorusError,
  type RefScope,
} from "@chorus/core";
import { createAcmeClient } from "./client.js";
import { ACME_SECRET_KEYS, type AcmeConfig } from "./config.js";
import { createMedia } from "./media.js";
import { createOutbound } from "./outbound.js";
import { createReactions } from "./reactions.js";
import { createReceive } from "./receive.js";
import { createWebhookHandler } from "./webhook.js";
import type { AcmeUser } from "./wire.js";

/** One running Acme account: wires the client, the webhook and its receiver, outbound and reactions. */
export function createAcmeInstance(ctx: ChannelContext<AcmeConfig>): ChannelInstance {
  // Every log line, error and status detail of this account passes the redactor first.
  const redactor = new Redactor(secretsOf(ctx.config, ACME_SECRET_KEYS));
  const logger = redactor.logger(ctx.logger);
  let bot: AcmeUser | undefined;
  let status: ChannelStatus = { state: "stopped" };
  /** Why Acme cannot be reached right now, told by the client after each attempt. */
  let unreachable: string | undefined;
  const client = createAcmeClient(ctx.config, {
    signal: ctx.signal,
    redactor,
    onReachability: (reachable, error) => {
      unreachable = reachable ? undefined : error?.message;
    },
  });
  const scope = (): RefScope => {
    if (!bot) throw new ChorusError("E_DISABLED", "Acme Chat is not started");
    return { channel: "acme", accountId: ctx.accountId, botId: bot.id };
  };
  const webhookUrl = ctx.http.url("/webhook");
  const running = () => (status.state === "running" ? scope() : undefined);
  // Routes are registered at create, before start: the gateway serves them under /hooks/acme/.
  const webhook = createWebhookHandler(ctx.config.webhookSecret, running, createReceive(ctx, logger), logger);
  ctx.http.route("POST", "/webhook", webhook);

  return {
    async start() {
      status = { state: "starting" };
      try {
        // One cheap call proves the token and tells the bot's own id (to drop its echoes) …
        bot = await client.request<AcmeUser>({ method: "GET", path: "/v1/me", operation: "read the bot's account" });
        // … and Acme learns where to deliver: this route, at the gateway's public URL.
        await client.request({ method: "PUT", path: "/v1/webhook", json: { url: webhookUrl } });
      } catch (error) {
        const reason = redactor.error(error);
        status = { state: "degraded", detail: reason.message };
        throw reason;
      }
      status = { state: "running", detail: `connected as ${bot.name}; webhook ${webhookUrl}` };
    },
    async stop() {
      status = { state: "stopped" };
    },
    ...createOutbound(client, scope),
    ...createMedia(ctx.config, ctx.signal),
    // Acme cannot list or clear reactions: what the bot holds is kept in the host's store.
    ...createReactions(client, new BotReactionRecord(ctx.store)),
    status: () =>
      redactor.status(status.state === "running" && unreachable ? { state: "degraded", detail: unreachable } : status),
    identity: () => (bot ? { id: bot.id, name: bot.name, isBot: true } : undefined),
  };
}
