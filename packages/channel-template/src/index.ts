/**
 * Acme Chat, the template channel. Read this file first: the plugin object the gateway imports
 * and the wiring of one running account. Then one idea per file, in this order: `config.ts` →
 * `client.ts` → `wire.ts` → `webhook.ts` → `inbound.ts` → `outbound.ts` → `reactions.ts`, and
 * the fake Acme every test runs against, in `testing/`.
 */
import { BotReactionRecord, Redactor, secretsOf } from "@chorus/channel-kit";
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
import { createAcmeClient } from "./client.js";
import { ACME_SECRET_KEYS, type AcmeConfig, acmeConfigSchema } from "./config.js";
import { createOutbound, MAX_TEXT_LENGTH } from "./outbound.js";
import { probeAcme } from "./probe.js";
import { acmeVocabulary, createReactions } from "./reactions.js";
import { createWebhookHandler } from "./webhook.js";
import type { AcmeUser } from "./wire.js";

/** What Acme Chat can do, as data: the agent's tool schema, core's rules and the contract suite read it. */
export const acmeCapabilities: ChannelCapabilities = {
  chatTypes: ["direct", "group"],
  reactions: {
    clearAll: true, // Acme cannot clear, but the bot reaction record knows what the bot added
    singleSlot: false, // the bot may hold several reactions on one message
    tapbackOnly: false, // emoji map onto names by rule 9; tapback kinds are iMessage's idea
    addOnly: false,
    list: false, // Acme does not say who reacted
    vocabulary: acmeVocabulary.names,
  },
  typing: true,
  inboundReactions: true,
  replies: true,
  threads: false,
  maxTextLength: MAX_TEXT_LENGTH,
};

/** The Acme Chat channel plugin; the package's default export. */
export const acmeChannel = defineChannel<AcmeConfig>({
  id: "acme",
  apiVersion: CHORUS_API_VERSION,
  label: "Acme Chat",
  capabilities: acmeCapabilities,
  vocabulary: acmeVocabulary,
  configSchema: acmeConfigSchema,
  secretKeys: ACME_SECRET_KEYS,
  create: (ctx) => createAcmeInstance(ctx),
  probe: (ctx) => probeAcme(ctx),
  // Acme reaches the bot by webhooks only: with several gateways the account runs on every one.
  holdsConnection: () => false,
});

export default acmeChannel;

function createAcmeInstance(ctx: ChannelContext<AcmeConfig>): ChannelInstance {
  // Every log line, error and status detail of this account passes the redactor first.
  const redactor = new Redactor(secretsOf(ctx.config, ACME_SECRET_KEYS));
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
  ctx.http.route("POST", "/webhook", createWebhookHandler(ctx, running, redactor.logger(ctx.logger)));

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
    // Acme cannot list or clear reactions: what the bot holds is kept in the host's store.
    ...createReactions(client, new BotReactionRecord(ctx.store)),
    status: () =>
      redactor.status(status.state === "running" && unreachable ? { state: "degraded", detail: unreachable } : status),
    identity: () => (bot ? { id: bot.id, name: bot.name, isBot: true } : undefined),
  };
}

export type { AcmeConfig } from "./config.js";
