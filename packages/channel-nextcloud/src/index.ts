/**
 * Nextcloud Talk: a webhook bot (spreed's bot API, HMAC-signed both ways). Reactions are
 * add-only. Reading order: `config.ts` → `instance.ts` (wiring of one bot) → `signing.ts` →
 * `client.ts` → `webhook.ts` (verification) → `receive.ts` (a hook → `ctx.emit` → its answer) →
 * `inbound.ts` (with `note.ts`, `attachments.ts`) → `outbound.ts` → `reactions.ts`; media: `media.ts`
 * (capabilities), `dav.ts` (the files user's WebDAV), `uploads.ts`, `download.ts`; `identity.ts`,
 * `reaction-events.ts` and `legacy.ts` for what is kept in the store; the fake Talk in `testing/`.
 */
import { CHORUS_API_VERSION, type ChannelCapabilities, defineChannel } from "@chorus/core";
import { NEXTCLOUD_SECRET_KEYS, type NextcloudConfig, nextcloudConfigSchema } from "./config.js";
import { createNextcloudInstance, NEXTCLOUD_ID, NEXTCLOUD_LABEL } from "./instance.js";
import { nextcloudLinkCapabilities, nextcloudMediaFor } from "./media.js";
import { probeNextcloud } from "./probe.js";

/** What Nextcloud Talk can do for a bot, as data (DESIGN §2.2 row: addOnly). */
export const nextcloudCapabilities: ChannelCapabilities = {
  chatTypes: ["direct", "group"], // one-to-one conversations and group conversations
  reactions: {
    clearAll: false, // nothing can be removed by the bot through Chorus
    singleSlot: false, // several reactions per message
    tapbackOnly: false, // any single standard emoji
    addOnly: true, // add-only: remove, empty emoji and clearAll are refused by core
    list: false, // the reaction list endpoint needs user auth, bots have none
  },
  typing: false, // bots have no typing endpoint
  inboundReactions: true, // with the bot's `reaction` feature (Talk 21+)
  replies: true, // replyTo on a message
  threads: false, // Talk's threads are not offered to bots
  maxTextLength: 32_000, // Talk's default chat message length
  // Link-only by default; an account with `files` uploads (`mediaFor`; media.ts, README "Media").
  media: nextcloudLinkCapabilities,
};

/** The Nextcloud Talk channel plugin; the package's default export. */
export const nextcloudChannel = defineChannel<NextcloudConfig>({
  id: NEXTCLOUD_ID,
  apiVersion: CHORUS_API_VERSION,
  label: NEXTCLOUD_LABEL,
  capabilities: nextcloudCapabilities,
  configSchema: nextcloudConfigSchema,
  secretKeys: NEXTCLOUD_SECRET_KEYS,
  create: (ctx) => createNextcloudInstance(ctx),
  probe: (ctx) => probeNextcloud(ctx),
  // A webhook bot: Talk posts to any gateway, so the account runs on every one.
  holdsConnection: () => false,
  // With a files login the account uploads over WebDAV and shares into the conversation.
  mediaFor: (config) => nextcloudMediaFor(config),
});

export default nextcloudChannel;

export { attachmentsOf, type NextcloudFileSource } from "./attachments.js";
export { BOT_API_PATH, createTalkClient, signedPart, type TalkClientOptions } from "./client.js";
export {
  NEXTCLOUD_SECRET_KEYS,
  type NextcloudConfig,
  type NextcloudFilesConfig,
  nextcloudConfigSchema,
} from "./config.js";
export { conversationOf, type NormalizedHook, normalizeHook, type ReactionOccurrence } from "./inbound.js";
export {
  NEXTCLOUD_DEFAULT_UPLOAD_BYTES,
  NEXTCLOUD_MAX_RECEIVE_BYTES,
  nextcloudFilesCapabilities,
  nextcloudLinkCapabilities,
  nextcloudMediaFor,
} from "./media.js";
export { readNote } from "./note.js";
export { botActorId, newRandom, sign, signatureMatches } from "./signing.js";
export { SHARE_API_PATH, SHARE_TYPE_ROOM } from "./uploads.js";
export { verifyWebhook } from "./webhook.js";
export type * from "./wire.js";
