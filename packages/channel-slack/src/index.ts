/**
 * Slack, on `@slack/web-api` with Socket Mode (`@slack/socket-mode`) or the Events API over
 * HTTP. Read this file first, then `instance.ts` (one running workspace), `config.ts`, the
 * transports (`socket.ts`, `webhook.ts`, `dispatch.ts`), `inbound.ts`, `outbound.ts`,
 * `reactions.ts`, and the fake Slack every test runs against in `testing/`.
 */
import { CHORUS_API_VERSION, type ChannelCapabilities, defineChannel } from "@chorus/core";
import { SLACK_SECRET_KEYS, type SlackConfig, slackConfigSchema } from "./config.js";
import { createSlackInstance } from "./instance.js";
import { MAX_TEXT_LENGTH } from "./outbound.js";
import { probeSlack } from "./probe.js";

/** What Slack can do, as data: the agent's tool schema, core's rules and the contract suite read it. */
export const slackCapabilities: ChannelCapabilities = {
  chatTypes: ["direct", "group"],
  reactions: {
    clearAll: true, // reactions.get says whose reactions they are: the bot removes exactly its own
    singleSlot: false, // the bot may hold many emoji on one message
    tapbackOnly: false,
    addOnly: false,
    list: true,
    // No vocabulary: any standard emoji, and a workspace's custom ones, are allowed.
  },
  // Bots have no typing indicator outside assistant threads (README, "Known limits").
  typing: false,
  inboundReactions: true,
  // A reply is a thread reply: inside threads, and with replyInThread for channel messages.
  replies: true,
  threads: true,
  maxTextLength: MAX_TEXT_LENGTH,
};

/** The Slack channel plugin; the package's default export. */
export const slackChannel = defineChannel<SlackConfig>({
  id: "slack",
  apiVersion: CHORUS_API_VERSION,
  label: "Slack",
  capabilities: slackCapabilities,
  configSchema: slackConfigSchema,
  secretKeys: SLACK_SECRET_KEYS,
  create: (ctx) => createSlackInstance(ctx),
  probe: (ctx) => probeSlack(ctx),
  // Socket Mode is one WebSocket per app; the Events API posts to any gateway.
  holdsConnection: (config) => (config.mode ?? (config.appToken ? "socket" : "http")) === "socket",
});

export default slackChannel;

export { type SlackConfig, slackConfigSchema } from "./config.js";
export { toMrkdwn } from "./mrkdwn.js";
export { verifySlackSignature } from "./webhook.js";
