/**
 * WhatsApp, through Baileys (a linked device of the owner's account): the plugin object the
 * gateway imports. Read on in `instance.ts` (one account's wiring), then by concern:
 * `link/` (credentials, `chorus channels login`) → `connection/` (the socket, reconnects, acks) →
 * `receive.ts` (Baileys' events → the kit's receiver → `ctx.emit`, then the read receipt) →
 * `inbound/` (normalising into Chorus events) → `outbound/` (send, typing) → `reactions/` →
 * `records/` (what the account keeps in `ctx.store`).
 */
import { CHORUS_API_VERSION, type ChannelCapabilities, type ChannelPlugin, defineChannel } from "@chorus/core";
import { WHATSAPP_SECRET_KEYS, type WhatsAppConfig, whatsappConfigSchema } from "./config.js";
import { createWhatsAppInstance, WHATSAPP_ID, WHATSAPP_LABEL, type WhatsAppInstanceOptions } from "./instance.js";
import { linkAccount } from "./link/index.js";
import { whatsappMediaCapabilities } from "./media/index.js";
import { WHATSAPP_MAX_TEXT } from "./outbound/index.js";
import { probeWhatsApp } from "./probe.js";

/** What WhatsApp can do, as data (DESIGN §2.2 row WhatsApp: clearAll, singleSlot). */
export const whatsappCapabilities: ChannelCapabilities = {
  chatTypes: ["direct", "group"], // one-to-one chats and groups (status, broadcasts and channels are not input)
  reactions: {
    clearAll: true, // `emoji: ""` / `clearAll: true` → react with text "" (empties the slot)
    singleSlot: true, // one reaction per person per message; a new one replaces it
    tapbackOnly: false, // any single emoji
    addOnly: false, // react with text "" removes the bot's reaction
    list: false, // WhatsApp has no call that lists reactions
  },
  typing: true, // presence "composing" / "paused" in the chat
  inboundReactions: true, // Baileys' messages.reaction (a removal is an empty reaction)
  replies: true, // the first part quotes the message (contextInfo.stanzaId)
  threads: false, // WhatsApp has no threads
  maxTextLength: WHATSAPP_MAX_TEXT, // 4000 characters a part (WhatsApp takes far more; phones do not)
  media: whatsappMediaCapabilities, // every kind in and out, each limit's source in media/capabilities.ts
};

/** The WhatsApp plugin; `options` are for tests (a clock they move). */
export function createWhatsAppChannel(options: WhatsAppInstanceOptions = {}): ChannelPlugin<WhatsAppConfig> {
  return defineChannel<WhatsAppConfig>({
    id: WHATSAPP_ID,
    apiVersion: CHORUS_API_VERSION,
    label: WHATSAPP_LABEL,
    capabilities: whatsappCapabilities,
    configSchema: whatsappConfigSchema,
    secretKeys: WHATSAPP_SECRET_KEYS,
    create: (ctx) => createWhatsAppInstance(ctx, options),
    login: (ctx) => linkAccount(ctx),
    probe: (ctx) => probeWhatsApp(ctx),
    loginOptions: [
      {
        name: "phone",
        value: "<number>",
        description: "link with a pairing code for this phone number (country code first) instead of a QR code",
      },
    ],
  });
}

/** The WhatsApp channel plugin; the package's default export. */
export const whatsappChannel = createWhatsAppChannel();

export default whatsappChannel;

export { type WhatsAppConfig, whatsappConfigSchema } from "./config.js";
export { DEFAULT_RETRY_AFTER_MS, toWhatsAppError } from "./errors.js";
export {
  type InboundContext,
  mentionFacts,
  type NormalizedMessage,
  type NormalizedReaction,
  normalizeMessage,
  normalizeReactionUpdate,
  ReactionMemory,
  type ReactionUpdate,
} from "./inbound/index.js";
export type { WhatsAppInstanceOptions } from "./instance.js";
export { type BotIdentity, chatJidOf, e164OfJid, userJidOf } from "./jids.js";
export { authDirOf, isLinked, openAuthState, type WhatsAppAuthState } from "./link/index.js";
export {
  attachmentsOf,
  WHATSAPP_MAX_DOCUMENT,
  WHATSAPP_MAX_MEDIA,
  WHATSAPP_MAX_STICKER,
  type WhatsAppMediaSource,
  whatsappMediaCapabilities,
} from "./media/index.js";
export { WHATSAPP_MAX_TEXT } from "./outbound/index.js";
export { planReaction, QUICK_REACTIONS, whatsappEmoji } from "./reactions/index.js";
export { addressOfRef, messageKeyOf, whatsappMessageRef } from "./ref.js";
