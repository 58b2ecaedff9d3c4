/**
 * Acme Chat, the template channel: the plugin object the gateway imports. Then one idea per file,
 * in this order: `config.ts` → `instance.ts` (one running account) → `webhook.ts` + `receive.ts`
 * (a delivery → `ctx.emit` → Acme's answer) → `inbound.ts` → `outbound.ts` + `media.ts` →
 * `reactions.ts`, and the fake Acme every test runs against, in `testing/`.
 */
import { CHORUS_API_VERSION, defineChannel } from "@chorus/core";
import { ACME_SECRET_KEYS, type AcmeConfig, acmeConfigSchema } from "./config.js";
import { createAcmeInstance } from "./instance.js";
import { ACME_MAX_FILE_BYTES } from "./media.js";
import { MAX_TEXT_LENGTH } from "./outbound.js";
import { probeAcme } from "./probe.js";
import { acmeVocabulary } from "./reactions.js";

/** The Acme Chat channel plugin; the package's default export. */
export const acmeChannel = defineChannel<AcmeConfig>({
  id: "acme",
  apiVersion: CHORUS_API_VERSION,
  label: "Acme Chat",
  // What Acme can do, as data: the agent's tool schema, core's rules and the contract suite read it.
  capabilities: {
    chatTypes: ["direct", "group"], // Acme has direct conversations and groups
    reactions: {
      clearAll: true, // Acme cannot clear, but the bot reaction record knows what the bot added
      singleSlot: false, // the bot may hold several reactions on one message
      tapbackOnly: false, // emoji map onto names by rule 9; tapback kinds are iMessage's idea
      addOnly: false, // a reaction can be taken back
      list: false, // Acme does not say who reacted
      vocabulary: acmeVocabulary.names, // the eight names Acme accepts
    },
    typing: true, // POST /typing shows an indicator
    inboundReactions: true, // reaction.added / reaction.removed arrive by webhook
    replies: true, // a message may answer another (reply_to)
    threads: false, // Acme has no threads
    maxTextLength: MAX_TEXT_LENGTH, // longer text is split
    media: {
      send: ["image", "video", "file", "location"], // bots cannot send voice notes: core sends them as files (rule 3)
      receive: ["image", "video", "voice", "file", "location"], // what people send arrives with a download URL
      maxSendBytes: ACME_MAX_FILE_BYTES, // Acme's 8 MB per file; larger is refused before any upload
      maxReceiveBytes: ACME_MAX_FILE_BYTES,
      caption: true, // a file's message carries text
      perMessage: 1, // one file per message: core splits an album into several
    },
  },
  vocabulary: acmeVocabulary,
  configSchema: acmeConfigSchema,
  secretKeys: ACME_SECRET_KEYS,
  create: (ctx) => createAcmeInstance(ctx),
  probe: (ctx) => probeAcme(ctx),
  // Acme reaches the bot by webhooks only: with several gateways the account runs on every one.
  holdsConnection: () => false,
});

export default acmeChannel;

export type { AcmeConfig } from "./config.js";
