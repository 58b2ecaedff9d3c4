/**
 * Discord, through discord.js: the plugin object the gateway imports. Each concern lives in its
 * own file: `config.ts` → `instance.ts` (the wiring of one bot account) → `connection.ts` (login,
 * READY deadline, re-login) + `client.ts` (+ `errors.ts`) → `listeners.ts` (+ `dispatches.ts`,
 * `origins.ts`) → `inbound.ts` → `outbound.ts` → `reactions.ts` (+ `emoji.ts`).
 */
import { CHORUS_API_VERSION, type ChannelCapabilities, defineChannel } from "@chorus/core";
import { DISCORD_SECRET_KEYS, type DiscordConfig, discordConfigSchema } from "./config.js";
import { createDiscordInstance } from "./instance.js";
import { DISCORD_MAX_TEXT } from "./outbound.js";
import { probeDiscord } from "./probe.js";

const ID = "discord";
const LABEL = "Discord";

/** What Discord can do, as data (DESIGN §2.2 row Discord: clearAll, list). */
export const discordCapabilities: ChannelCapabilities = {
  chatTypes: ["direct", "group"],
  reactions: {
    clearAll: true, // `emoji: ""` / `clearAll: true` → DELETE …/{e}/@me for every reaction with me: true
    singleSlot: false, // a bot may hold many reactions on one message
    tapbackOnly: false,
    addOnly: false,
    list: true, // GET …/messages/{id} → reactions[] {emoji, count, me}
  },
  typing: true,
  inboundReactions: true,
  replies: true,
  threads: true,
  maxTextLength: DISCORD_MAX_TEXT,
};

/** The Discord channel plugin; the package's default export. */
export const discordChannel = defineChannel<DiscordConfig>({
  id: ID,
  apiVersion: CHORUS_API_VERSION,
  label: LABEL,
  capabilities: discordCapabilities,
  configSchema: discordConfigSchema,
  secretKeys: DISCORD_SECRET_KEYS,
  create: (ctx) => createDiscordInstance(ctx, ID),
  probe: (ctx) => probeDiscord(ctx),
});

export default discordChannel;

export { createDiscordClient, DiscordRest, discordIntents } from "./client.js";
export { DISCORD_SECRET_KEYS, type DiscordConfig, discordConfigSchema } from "./config.js";
export { dispatchProblem } from "./dispatches.js";
export {
  type CustomEmojiLookup,
  type DiscordEmoji,
  discordEmojiKey,
  emojiSegment,
  reactionEmojiKey,
  toDiscordEmoji,
} from "./emoji.js";
export { gatewayCloseError, toDiscordError } from "./errors.js";
export { conversationOf, normalizeMessage, normalizeReaction, type ReactionOrigin } from "./inbound.js";
export { DISCORD_MAX_TEXT } from "./outbound.js";
