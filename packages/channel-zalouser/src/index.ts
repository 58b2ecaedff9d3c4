/**
 * Zalo Personal: a personal Zalo account through zca-js, the unofficial client of Zalo's web
 * protocol. This file is the plugin object the gateway imports; then `config.ts` → `instance.ts`
 * (one running account) → `session.ts` → `login.ts` → `connection.ts` (with `zalo/`: the
 * transport zca-js fetches through, its AES and its errors) → `receive.ts` (a listener event →
 * `ctx.emit`, kept until committed) → `inbound.ts` (`attachments.ts`) → `outbound.ts`
 * (`media-send.ts`) → `download.ts` → `reactions.ts`; `media.ts` says what Zalo does with media.
 * The fake Zalo every test runs against is in `testing/`.
 */
import { CHORUS_API_VERSION, defineChannel } from "@chorus/core";
import { ZALOUSER_SECRET_KEYS, type ZalouserConfig, zalouserConfigSchema } from "./config.js";
import { createZalouserInstance } from "./instance.js";
import { loginWithQr } from "./login.js";
import { zaloMediaCapabilities } from "./media.js";
import { MAX_TEXT_LENGTH } from "./outbound.js";
import { probeZalouser } from "./probe.js";
import { zaloVocabulary } from "./vocabulary.js";

/** The Zalo Personal channel plugin; the package's default export. */
export const zalouserChannel = defineChannel<ZalouserConfig>({
  id: "zalouser",
  apiVersion: CHORUS_API_VERSION,
  label: "Zalo Personal",
  // What Zalo Personal can do, as data: the agent's tool schema, core's rules and the contract suite read it.
  capabilities: {
    chatTypes: ["direct", "group"], // direct conversations and groups
    reactions: {
      clearAll: false, // Zalo clears all of one's reactions at once, but the row promises no clearing
      singleSlot: false, // the bot may hold several icons on one message
      tapbackOnly: false, // a closed set of icons, reached from emoji by rule 9
      addOnly: false, // removing one icon clears and adds back the others
      list: false, // Zalo has no listing: the bot reaction record knows what the bot holds
      vocabulary: zaloVocabulary.names, // Zalo's icon names
    },
    typing: true, // sendTypingEvent (no "stopped")
    inboundReactions: true, // the listener's reaction events
    replies: true, // a quote of the message answered
    threads: false, // Zalo has no threads
    maxTextLength: MAX_TEXT_LENGTH, // longer text is split
    media: zaloMediaCapabilities, // photos, files, voice messages out (one a message); those, videos, stickers, locations in (media.ts)
  },
  vocabulary: zaloVocabulary,
  configSchema: zalouserConfigSchema,
  secretKeys: ZALOUSER_SECRET_KEYS,
  create: (ctx) => createZalouserInstance(ctx),
  login: (ctx) => loginWithQr(ctx),
  probe: (ctx) => probeZalouser(ctx),
});

export default zalouserChannel;

export type { ZalouserConfig } from "./config.js";
export { ZALO_MAX_FILE_BYTES, ZALO_MAX_PHOTO_BYTES, zaloMediaCapabilities } from "./media.js";
export { readSession, SESSION_KEY, writeSession, type ZaloSession } from "./session.js";
