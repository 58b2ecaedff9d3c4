/**
 * iMessage through a BlueBubbles server: REST out, webhooks in, tapbacks as reactions.
 * Reading order: `config.ts` → `instance.ts` (wiring of one server) → `client.ts` (with
 * `envelope.ts`) → `health.ts` / `connection.ts` → `webhook.ts` (the secret) → `receive.ts`
 * (a webhook → `ctx.emit` → its answer) → `inbound.ts` → `outbound.ts` → `reactions.ts` (with
 * `vocabulary.ts`); media: `media.ts` (capabilities), `attachments.ts`, `download.ts`,
 * `media-send.ts` (with `streamed-call.ts`); state: `own-messages.ts`, `secret.ts`,
 * `legacy-state.ts`; the fake server in `testing/`.
 */
import { CHORUS_API_VERSION, type ChannelCapabilities, defineChannel } from "@chorus/core";
import { IMESSAGE_SECRET_KEYS, type IMessageConfig, imessageConfigSchema } from "./config.js";
import { createIMessageInstance, IMESSAGE_ID } from "./instance.js";
import { imessageMediaFor, imessagePrivateApiMedia } from "./media.js";
import { probeIMessage } from "./probe.js";
import { imessageVocabulary, TAPBACK_KINDS } from "./vocabulary.js";

/** What iMessage through BlueBubbles can do, as data (DESIGN §2.2 row: tapbackOnly, singleSlot, clearAll). */
export const imessageCapabilities: ChannelCapabilities = {
  chatTypes: ["direct", "group"], // one-to-one chats (`;-;`) and group chats (`;+;`)
  reactions: {
    clearAll: true, // emoji "" or clearAll: true takes the bot's tapback back
    singleSlot: true, // one tapback per person per message; a new one replaces the old
    tapbackOnly: true, // six kinds; emoji must map onto one
    addOnly: false, // the bot's tapback can be taken back (`-love`)
    list: false, // no "who tapped what" call: the bot's own tapback is its bot reaction record in the store
    vocabulary: TAPBACK_KINDS, // love, like, dislike, laugh, emphasize, question
  },
  typing: true, // with the Private API
  inboundReactions: true, // tapback rows (associatedMessageType) become reaction events
  replies: true, // inline replies, with the Private API
  threads: false, // iMessage has none
  maxTextLength: 4_000, // split on sensible boundaries above this
  // With the Private API (sendMethod auto, the default, or private-api); AppleScript: mediaFor (media.ts).
  media: imessagePrivateApiMedia,
};

/** The iMessage channel plugin; the package's default export. */
export const imessageChannel = defineChannel<IMessageConfig>({
  id: IMESSAGE_ID,
  apiVersion: CHORUS_API_VERSION,
  label: "iMessage",
  capabilities: imessageCapabilities,
  vocabulary: imessageVocabulary,
  configSchema: imessageConfigSchema,
  secretKeys: IMESSAGE_SECRET_KEYS,
  create: (ctx) => createIMessageInstance(ctx),
  probe: (ctx) => probeIMessage(ctx),
  // BlueBubbles posts webhooks to any gateway; sends are REST calls.
  holdsConnection: () => false,
  // What goes out depends on how the account sends: AppleScript has no captions and no audio messages.
  mediaFor: (config) => imessageMediaFor(config),
});

export default imessageChannel;

export { chatKind, directChatGuid, directHandle, e164Of, handleId } from "./addresses.js";
export { AUDIO_MESSAGE_UTI, attachmentsOf, type IMessageFileSource, kindOf } from "./attachments.js";
export { API_PREFIX, BlueBubblesClient, type BlueBubblesClientOptions, type FilePart } from "./client.js";
export { IMESSAGE_SECRET_KEYS, type IMessageConfig, imessageConfigSchema } from "./config.js";
export { checkServer, type ServerHealth, WEBHOOK_EVENTS } from "./health.js";
export { conversationOf, imessageRef, type NormalizeContext, type Normalized, normalizeMessage } from "./inbound.js";
export type { IMessageInstance } from "./instance.js";
export { LEGACY_FILES } from "./legacy-state.js";
export {
  BLUEBUBBLES_MAX_DOWNLOAD_BYTES,
  BLUEBUBBLES_MAX_UPLOAD_BYTES,
  IMESSAGE_MAX_PER_MESSAGE,
  imessageAppleScriptMedia,
  imessageMediaFor,
  imessagePrivateApiMedia,
} from "./media.js";
export { chatGuidOf } from "./outbound.js";
export { OwnMessages } from "./own-messages.js";
export { SECRET_HEADER, WEBHOOK_SECRET_KEY } from "./secret.js";
export {
  emojiOfTapbackText,
  imessageVocabulary,
  parseTapbackType,
  TAPBACK_EMOJI,
  TAPBACK_KINDS,
  type TapbackKind,
  targetGuid,
} from "./vocabulary.js";

export type * from "./wire.js";
