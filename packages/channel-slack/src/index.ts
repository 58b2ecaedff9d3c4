/**
 * Slack, on `@slack/web-api` with Socket Mode (`@slack/socket-mode`) or the Events API over
 * HTTP: the plugin object the gateway imports. Then one idea per file, in this order: `config.ts`
 * → `instance.ts` (one running workspace) → the transports `socket.ts` / `webhook.ts` and
 * `receive.ts` (a delivery → `ctx.emit` → Slack's acknowledgement) → `inbound.ts`
 * (`attachments.ts`) → `outbound.ts` (`media-send.ts`, `upload.ts`, `share.ts`) → `download.ts` →
 * `reactions.ts`; `media.ts` says what Slack does with media. The fake Slack every test runs
 * against is in `testing/`.
 */
import { CHORUS_API_VERSION, defineChannel } from "@chorus/core";
import { SLACK_SECRET_KEYS, type SlackConfig, slackConfigSchema } from "./config.js";
import { createSlackInstance } from "./instance.js";
import { slackMediaCapabilities } from "./media.js";
import { MAX_TEXT_LENGTH } from "./outbound.js";
import { probeSlack } from "./probe.js";

/** The Slack channel plugin; the package's default export. */
export const slackChannel = defineChannel<SlackConfig>({
  id: "slack",
  apiVersion: CHORUS_API_VERSION,
  label: "Slack",
  // What Slack can do, as data: the agent's tool schema, core's rules and the contract suite read it.
  capabilities: {
    chatTypes: ["direct", "group"], // DMs and group DMs, public and private channels
    reactions: {
      clearAll: true, // reactions.get says whose reactions they are: the bot removes exactly its own
      singleSlot: false, // the bot may hold many emoji on one message
      tapbackOnly: false, // any emoji, not iMessage's tapback kinds
      addOnly: false, // reactions.remove takes one back
      list: true, // reactions.get lists every emoji with who reacted
      // No vocabulary: any standard emoji, and a workspace's custom ones, are allowed.
    },
    typing: false, // bots have no typing indicator outside assistant threads (README, "Known limits")
    inboundReactions: true, // reaction_added / reaction_removed arrive as events
    replies: true, // a reply is a thread reply: inside threads, and with replyInThread for channel messages
    threads: true, // a thread is a conversation of its own
    maxTextLength: MAX_TEXT_LENGTH, // longer text is split
    media: slackMediaCapabilities, // files of up to 1 GB, 10 a message, with a caption; voice clips come in (media.ts)
  },
  configSchema: slackConfigSchema,
  secretKeys: SLACK_SECRET_KEYS,
  create: (ctx) => createSlackInstance(ctx),
  probe: (ctx) => probeSlack(ctx),
  // Socket Mode is one WebSocket per app; the Events API posts to any gateway.
  holdsConnection: (config) => (config.mode ?? (config.appToken ? "socket" : "http")) === "socket",
});

export default slackChannel;

export { type SlackConfig, slackConfigSchema } from "./config.js";
export { SLACK_MAX_FILE_BYTES, SLACK_MAX_FILES, slackMediaCapabilities } from "./media.js";
export { toMrkdwn } from "./mrkdwn.js";
export { verifySlackSignature } from "./webhook.js";
