/**
 * Telegram, through grammY: the plugin object the gateway imports. Each concern lives in its own
 * file: `config.ts` → `instance.ts` (wiring of one account) → `api.ts` (client, retries, errors)
 * → `receive.ts` (an update from `poller.ts` or `webhook.ts` → `ctx.emit` → its acknowledgement)
 * → `wire.ts` + `inbound.ts` + `attachments.ts` (reading and normalizing updates; albums:
 * `album.ts`, `album-buffer.ts`) → `outbound.ts` (`media-steps.ts`, `media-send.ts`, `upload.ts`)
 * → `download.ts` → `reactions.ts`; `media.ts` says what Telegram does with media.
 * State lives in the channel's store (`ctx.store`); the fake Bot API in `testing/`.
 */
import { CHORUS_API_VERSION, type ChannelCapabilities, defineChannel } from "@chorus/core";
import { TELEGRAM_SECRET_KEYS, type TelegramConfig, telegramConfigSchema } from "./config.js";
import { createTelegramInstance, TELEGRAM_ID, TELEGRAM_LABEL } from "./instance.js";
import { telegramMediaCapabilities } from "./media.js";
import { TELEGRAM_MAX_TEXT } from "./outbound.js";
import { probeTelegram } from "./probe.js";
import { telegramVocabulary } from "./vocabulary.js";

/** What Telegram can do, as data (DESIGN §2.2 row Telegram: clearAll, singleSlot, 73-emoji vocabulary). */
export const telegramCapabilities: ChannelCapabilities = {
  chatTypes: ["direct", "group"], // private chats; groups and supergroups
  reactions: {
    clearAll: true, // `emoji: ""` / `clearAll: true` → setMessageReaction(reaction: [])
    singleSlot: true, // a bot holds one reaction per message; a new one replaces it
    tapbackOnly: false, // any of the allowed emoji, not a fixed set of kinds
    addOnly: false, // the bot's reaction can be taken back
    list: false, // the Bot API cannot list reactions
    vocabulary: telegramVocabulary.names, // the 73 emoji Telegram lets bots use
  },
  typing: true, // sendChatAction "typing"
  inboundReactions: true, // message_reaction updates (the bot must be a group admin)
  replies: true, // reply_parameters
  threads: true, // forum topics
  maxTextLength: TELEGRAM_MAX_TEXT, // 4096 characters per message
  media: telegramMediaCapabilities, // every kind in and out; 50 MB uploads (photos 10 MB), 20 MB downloads
};

/** The Telegram channel plugin; the package's default export. */
export const telegramChannel = defineChannel<TelegramConfig>({
  id: TELEGRAM_ID,
  apiVersion: CHORUS_API_VERSION,
  label: TELEGRAM_LABEL,
  capabilities: telegramCapabilities,
  vocabulary: telegramVocabulary,
  configSchema: telegramConfigSchema,
  secretKeys: TELEGRAM_SECRET_KEYS,
  create: (ctx) => createTelegramInstance(ctx),
  probe: (ctx) => probeTelegram(ctx),
  // Long polling is one connection per bot (a second poller gets 409); webhooks reach any gateway.
  holdsConnection: (config) => config.webhookUrl === undefined,
});

export default telegramChannel;

export { ALBUM_WINDOW_MS, AlbumParts, mergeAlbum } from "./album.js";
export { createTelegramApi, type TelegramApiOptions } from "./api.js";
export { attachmentsOf, type TelegramFileSource } from "./attachments.js";
export { TELEGRAM_SECRET_KEYS, type TelegramConfig, telegramConfigSchema } from "./config.js";
export { TelegramApiError, toTelegramError } from "./errors.js";
export { ALLOWED_UPDATES, type InboundContext, type NormalizedUpdate, normalizeUpdate } from "./inbound.js";
export { LEGACY_MIGRATIONS_FILE, LEGACY_REACTIONS_FILE } from "./legacy-state.js";
export {
  TELEGRAM_MAX_ALBUM,
  TELEGRAM_MAX_CAPTION,
  TELEGRAM_MAX_DOWNLOAD,
  TELEGRAM_MAX_PHOTO,
  TELEGRAM_MAX_UPLOAD,
  telegramMediaCapabilities,
} from "./media.js";
export { type TelegramStep, telegramSteps } from "./media-steps.js";
export { type BotUser, mentionFacts } from "./mentions.js";
export {
  reactionKey,
  TELEGRAM_REACTION_EMOJI,
  type TelegramReactionEmoji,
  telegramVocabulary,
  toTelegramReaction,
} from "./vocabulary.js";
export { SECRET_HEADER, secretMatches } from "./webhook.js";
export { type ReadUpdate, readUpdate } from "./wire.js";
