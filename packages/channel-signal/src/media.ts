import type { AttachmentKind, MediaCapabilities } from "@chorus/core";

const MB = 1024 * 1024;

/**
 * The longest string signal-cli's JSON-RPC reads: Jackson's `StreamReadConstraints` default
 * (`maxStringLength` 20,000,000 characters; signal-cli 0.14.6 uses jackson-databind 2.21.5 and
 * sets no other). A longer one fails the whole request ("String value length … exceeds the
 * maximum allowed", AsamK/signal-cli#2127; over HTTP: JSON-RPC -32603), so an attachment's
 * `data:` URI — its base64 — must stay under it.
 */
export const SIGNAL_CLI_MAX_STRING = 20_000_000;
/**
 * The largest medium sent: its base64 (19,573,420 characters) and a `data:` prefix fit in
 * `SIGNAL_CLI_MAX_STRING`. Signal itself takes larger files; the daemon's JSON does not.
 */
export const SIGNAL_MAX_UPLOAD = 14 * MB;
/** The largest attachment signal-cli downloads (`ServiceConfig.MAX_ATTACHMENT_SIZE`, 150 MiB): nothing larger reaches it. */
export const SIGNAL_MAX_DOWNLOAD = 150 * MB;
/** Media of one message: Signal-Android lets people pick 32 (`MediaSendConstants.MAX_PUSH`); signal-cli sets no limit. */
export const SIGNAL_MAX_PER_MESSAGE = 32;
/** signal-cli's type of a long message body sent as an attachment (`MimeUtils.LONG_TEXT`); it is the message's text, not a medium. */
export const LONG_TEXT_TYPE = "text/x-signal-plain";

/**
 * What Signal does with media through signal-cli, as data (DESIGN §2.6). Photos, videos, audio,
 * voice notes (`voiceNote: true` on `send`) and files go out as attachments (`data:` URIs), up to
 * 32 with one text as their caption; a sticker goes out as an image (signal-cli sends only stickers
 * of packs the account has installed) and a location as a link (Signal has no location pin).
 * Inbound, photos, videos, audio, files and stickers arrive; voice notes are flagged only by
 * signal-cli after 0.14.6 (`isVoiceNote`): `voice` is not declared, so the gateway counts short
 * audio as a voice note where the daemon does not say.
 */
export const signalMediaCapabilities: MediaCapabilities = {
  send: ["image", "video", "audio", "voice", "file"],
  receive: ["image", "video", "audio", "file", "sticker"],
  maxSendBytes: SIGNAL_MAX_UPLOAD,
  maxReceiveBytes: SIGNAL_MAX_DOWNLOAD,
  caption: true,
  perMessage: SIGNAL_MAX_PER_MESSAGE,
};

/** The kind Signal shows a file of `contentType` as (its clients decide by the type; a voice note by its flag). */
export function kindOfType(contentType: string | null | undefined, voiceNote = false): AttachmentKind {
  if (voiceNote) return "voice";
  const type = (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (type.startsWith("image/")) return "image";
  if (type.startsWith("video/")) return "video";
  if (type.startsWith("audio/")) return "audio";
  return "file";
}
