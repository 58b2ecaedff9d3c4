/**
 * Acme Chat, the template channel: read this file first. It is the plugin object the gateway
 * imports (id, capabilities, config schema, create) and the wiring of one running instance;
 * each concern it wires lives in its own file, in reading order:
 * `config.ts` → `client.ts` → `inbound.ts` → `outbound.ts` → `reactions.ts`.
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
import { AcmeClient } from "./client.js";
import { type AcmeConfig, acmeConfigSchema } from "./config.js";
import { createWebhookHandler } from "./inbound.js";
import { AcmeOutbound } from "./outbound.js";
import { AcmeReactions } from "./reactions.js";
import type { Identity } from "./ref.js";
import type { AcmeUser } from "./wire.js";

const ID = "acme";
const LABEL = "Acme Chat";

/**
 * What Acme Chat can do, as data. The gateway, the agent's tool schema and the contract suite
 * all read these flags, and the suite fails if the plugin does not behave as they say.
 */
export const acmeCapabilities: ChannelCapabilities = {
  chatTypes: ["direct", "group"],
  reactions: {
    clearAll: true, // `emoji: ""` or `clearAll: true` removes every reaction the bot left
    singleSlot: false, // the bot may hold several reactions on one message
    tapbackOnly: false, // any standard emoji, not a closed set of kinds
    addOnly: false, // reactions can be removed
    list: true, // `GET /v1/messages/:id/reactions` exists
  },
  typing: true,
  inboundReactions: true,
  replies: true,
  threads: false,
  maxTextLength: 4000,
};

/** The Acme Chat channel plugin; the package's default export. */
export const acmeChannel = defineChannel<AcmeConfig>({
  id: ID,
  apiVersion: CHORUS_API_VERSION,
  label: LABEL,
  capabilities: acmeCapabilities,
  configSchema: acmeConfigSchema,
  create: (ctx) => createAcmeInstance(ctx),
});

export default acmeChannel;

/** One running account of Acme Chat: the webhook route, the REST client and the channel's status. */
function createAcmeInstance(ctx: ChannelContext<AcmeConfig>): ChannelInstance {
  const client = new AcmeClient(ctx.config, ctx.signal);
  let identity: Identity | undefined;
  let running = false;
  let status: ChannelStatus = { state: "stopped" };
  const who = (): Identity => {
    if (!identity) throw new ChorusError("E_DISABLED", `${LABEL} is not started`);
    return identity;
  };
  const outbound = new AcmeOutbound(client, who, acmeCapabilities.maxTextLength);
  const reactions = new AcmeReactions(client, LABEL);

  // Routes are registered at create, before start: the gateway mounts them under /hooks/acme/.
  // Until start() learned who the bot is, the handler answers 503 and Acme delivers again later.
  ctx.http.route(
    "POST",
    "/webhook",
    createWebhookHandler({
      webhookSecret: ctx.config.webhookSecret,
      identity: () => (running ? identity : undefined),
      emit: (event) => ctx.emit(event),
      logger: ctx.logger,
    }),
  );

  return {
    async start() {
      status = { state: "starting" };
      let me: AcmeUser;
      try {
        // One cheap call proves the token works and tells us our own id (to drop our echoes).
        me = await client.request<AcmeUser>("GET", "/v1/me");
      } catch (error) {
        const reason = toChorusError(error, `${LABEL} could not start`);
        status = { state: "degraded", detail: reason.message };
        throw reason;
      }
      identity = { channel: ID, accountId: ctx.accountId, botId: me.id };
      running = true;
      // The webhook URL is what the author pastes into the Acme console, so status shows it.
      status = { state: "running", detail: `connected as ${me.name}; webhook ${ctx.http.url("/webhook")}` };
    },
    async stop() {
      running = false;
      status = { state: "stopped" };
    },
    send: (conversation, message) => outbound.send(conversation, message),
    react: (ref, intent) => reactions.react(ref, intent),
    listReactions: (ref: MessageRef) => reactions.list(ref),
    setTyping: (conversation, on) => outbound.setTyping(conversation, on),
    resolveMessageRef: (conversation, messageId) => outbound.resolveMessageRef(conversation, messageId),
    status: () => status,
  };
}

export { AcmeApiError, AcmeClient } from "./client.js";
export { type AcmeConfig, acmeConfigSchema } from "./config.js";
export { verifyWebhook, WEBHOOK_TOLERANCE_SECONDS } from "./inbound.js";
export type * from "./wire.js";
