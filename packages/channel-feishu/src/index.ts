/**
 * Feishu / Lark: the plugin object the gateway imports. Then one idea per file: `config.ts` →
 * `instance.ts` (one running app) → `errors.ts` → `http.ts` (the kit's client under the SDK) →
 * `api.ts` → the transports `long-connection.ts` / `webhook.ts` and `receive.ts` (an event →
 * `ctx.emit` → Feishu's acknowledgement) → `inbound.ts` (with `content.ts`, `attachments.ts`,
 * `directory.ts`) → `outbound.ts` (media: `media-send.ts`, `upload.ts`, `media-probe.ts`,
 * `transcode.ts`) → `download.ts` → `reactions.ts` (with `vocabulary.ts`); `media.ts` says what
 * Feishu does with media; the fake Feishu every test runs against is in `testing/`.
 */
import { CHORUS_API_VERSION, defineChannel } from "@chorus/core";
import { FEISHU_SECRET_KEYS, type FeishuConfig, feishuConfigSchema } from "./config.js";
import { createFeishuInstance } from "./instance.js";
import { feishuMediaCapabilities } from "./media.js";
import { MAX_TEXT_LENGTH } from "./outbound.js";
import { probeFeishu } from "./probe.js";
import { feishuVocabulary } from "./vocabulary.js";

/** The Feishu / Lark channel plugin; the package's default export. */
export const feishuChannel = defineChannel<FeishuConfig>({
  id: "feishu",
  apiVersion: CHORUS_API_VERSION,
  label: "Feishu",
  // What Feishu / Lark can do, as data: the agent's tool schema, core's rules and the contract suite read it.
  capabilities: {
    chatTypes: ["direct", "group"], // p2p chats and groups
    reactions: {
      clearAll: "explicit", // an empty emoji is refused; clearAll: true removes every reaction of the bot
      singleSlot: false, // the bot may hold several emoji_types on one message
      tapbackOnly: false, // any emoji_type, not iMessage's tapback kinds
      addOnly: false, // a reaction can be deleted by its reaction_id
      list: true, // Feishu lists every reaction with its operator
      vocabulary: feishuVocabulary.names, // only Feishu's emoji_type names
    },
    typing: false, // Feishu has no typing indicator for bots
    inboundReactions: true, // im.message.reaction.created_v1 / deleted_v1
    replies: true, // a message may reply to another
    threads: true, // topic threads are conversations of their own
    maxTextLength: MAX_TEXT_LENGTH, // longer text is split
    media: feishuMediaCapabilities, // images 10 MB, video, voice notes and files 30 MB out; downloads up to 100 MB
  },
  vocabulary: feishuVocabulary,
  configSchema: feishuConfigSchema,
  secretKeys: FEISHU_SECRET_KEYS,
  create: (ctx) => createFeishuInstance(ctx),
  probe: (ctx) => probeFeishu(ctx),
  // The long connection is one per app; webhooks reach any gateway.
  holdsConnection: (config) => config.mode === "websocket",
});

export default feishuChannel;

export { attachmentsOf, type FeishuResourceSource } from "./attachments.js";
export { type FeishuConfig, feishuConfigSchema, openApiBase } from "./config.js";
export { decryptEvent, eventSignature } from "./crypto.js";
export {
  FEISHU_MAX_DOWNLOAD_BYTES,
  FEISHU_MAX_FILE_BYTES,
  FEISHU_MAX_IMAGE_BYTES,
  feishuMediaCapabilities,
} from "./media.js";
export { EMOJI_OF_TYPE, emojiOfType, FEISHU_EMOJI_TYPES, feishuVocabulary } from "./vocabulary.js";
