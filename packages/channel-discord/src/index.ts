/**
 * Discord, through discord.js: the plugin object the gateway imports. Each concern lives in its
 * own file: `config.ts` → `instance.ts` (the wiring of one bot account) → `connection.ts` (login,
 * READY deadline, re-login) + `client.ts` (+ `errors.ts`) → `receive.ts` (gateway events → the
 * kit's receiver → `ctx.emit`, + `origins.ts`) → `inbound.ts` (normalising, + `attachments.ts`) →
 * `outbound.ts` (+ `uploads.ts`) → `media.ts` (limits, download) → `reactions.ts` (+ `emoji.ts`).
 */
import { CHORUS_API_VERSION, type ChannelCapabilities, defineChannel } from "@chorus/core";
import { DISCORD_SECRET_KEYS, type DiscordConfig, discordConfigSchema } from "./config.js";
import { createDiscordInstance, DISCORD_ID, DISCORD_LABEL } from "./instance.js";
import {
  DISCORD_MAX_FILES,
  DISCORD_MAX_MESSAGE_MEDIA_BYTES,
  DISCORD_MAX_RECEIVE_BYTES,
  DISCORD_MAX_UPLOAD_BYTES,
} from "./media.js";
import { DISCORD_MAX_TEXT } from "./outbound.js";
import { probeDiscord } from "./probe.js";

/** What Discord can do, as data (DESIGN §2.2 row Discord: clearAll, list). */
export const discordCapabilities: ChannelCapabilities = {
  chatTypes: ["direct", "group"], // DMs; guild text channels and their threads
  reactions: {
    clearAll: true, // `emoji: ""` / `clearAll: true` → DELETE …/{e}/@me for every reaction with me: true
    singleSlot: false, // a bot may hold many reactions on one message
    tapbackOnly: false, // any unicode emoji or a custom emoji of the bot's guilds
    addOnly: false, // DELETE …/{e}/@me removes the bot's own reaction
    list: true, // GET …/messages/{id} → reactions[] {emoji, count, me}
  },
  typing: true, // POST /channels/{id}/typing (no "off": Discord clears it after ~10 s)
  inboundReactions: true, // MESSAGE_REACTION_ADD / _REMOVE / _REMOVE_ALL / _REMOVE_EMOJI
  replies: true, // message_reference on the first part
  threads: true, // a thread is its own session under its parent channel
  maxTextLength: DISCORD_MAX_TEXT, // 2000 characters of `content`
  media: {
    // Uploaded as files[n]; a sticker goes out as an image (bots upload no stickers, they send guild
    // stickers by id), a voice note as audio; no native location (core sends it as text).
    send: ["image", "video", "audio", "file"],
    // attachments[] by content_type; IS_VOICE_MESSAGE (1 << 13) → voice; sticker_items → sticker.
    receive: ["image", "video", "audio", "voice", "file", "sticker"],
    maxSendBytes: DISCORD_MAX_UPLOAD_BYTES, // 10 MiB per file (reference.mdx "Uploading Files")
    maxMessageBytes: DISCORD_MAX_MESSAGE_MEDIA_BYTES, // 25 MiB per request, less room for the form
    maxReceiveBytes: DISCORD_MAX_RECEIVE_BYTES, // 25 MiB (see media.ts)
    caption: true, // the message content travels with its files
    perMessage: DISCORD_MAX_FILES, // 10 attachments per message
  },
};

/** The Discord channel plugin; the package's default export. */
export const discordChannel = defineChannel<DiscordConfig>({
  id: DISCORD_ID,
  apiVersion: CHORUS_API_VERSION,
  label: DISCORD_LABEL,
  capabilities: discordCapabilities,
  configSchema: discordConfigSchema,
  secretKeys: DISCORD_SECRET_KEYS,
  create: (ctx) => createDiscordInstance(ctx),
  probe: (ctx) => probeDiscord(ctx),
});

export default discordChannel;

export { createDiscordClient, DiscordRest, discordIntents } from "./client.js";
export { DISCORD_SECRET_KEYS, type DiscordConfig, discordConfigSchema } from "./config.js";
export {
  type CustomEmojiLookup,
  type DiscordEmoji,
  discordEmojiKey,
  emojiSegment,
  reactionEmojiKey,
  toDiscordEmoji,
} from "./emoji.js";
export { gatewayCloseError, toDiscordError } from "./errors.js";
export {
  conversationOf,
  type DiscordDelivery,
  dispatchProblem,
  normalizeDelivery,
  normalizeMessage,
  normalizeReaction,
  type ReactionOrigin,
} from "./inbound.js";
export {
  DISCORD_MAX_FILES,
  DISCORD_MAX_MESSAGE_MEDIA_BYTES,
  DISCORD_MAX_RECEIVE_BYTES,
  DISCORD_MAX_REQUEST_BYTES,
  DISCORD_MAX_UPLOAD_BYTES,
  type DiscordMediaSource,
} from "./media.js";
export { DISCORD_MAX_TEXT } from "./outbound.js";
