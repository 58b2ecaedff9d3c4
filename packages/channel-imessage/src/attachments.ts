import type { Attachment, AttachmentKind } from "@chorus/core";
import type { BlueBubblesAttachment } from "./wire.js";

/** What `download` needs of an attachment (its `source`): the GUID the server files it under. */
export interface IMessageFileSource {
  readonly guid: string;
}

/** The UTI of an iMessage audio message (a `.caf` recording): chat.db's `attachment.uti`. */
export const AUDIO_MESSAGE_UTI = "com.apple.coreaudio-format";

/**
 * Types the server converts when it serves them (`AttachmentRouter.download` without `original`,
 * `convertImage` / `convertAudio` in `databases/imessage/helpers/utils.ts`): HEIC, HEIF and TIFF to
 * JPEG with `sips`, CAF to AAC in M4A (labelled `audio/mp3`) with `afconvert`. Their `totalBytes`
 * and original type say nothing of what the download gives.
 */
const CONVERTED_UTIS = new Set(["public.heic", "public.heif", "public.tiff", AUDIO_MESSAGE_UTI]);
const CONVERTED_TYPES = /^(image\/(heic|heif|tiff)|audio\/x-caf)/iu;

/** UTIs of files without a MIME type, by the kind they are shown as. */
const UTI_KINDS: Record<string, AttachmentKind> = {
  "public.jpeg": "image",
  "public.png": "image",
  "public.heic": "image",
  "public.heif": "image",
  "public.tiff": "image",
  "com.compuserve.gif": "image",
  "org.webmproject.webp": "image",
  "com.apple.quicktime-movie": "video",
  "public.mpeg-4": "video",
  "public.mp3": "audio",
  "com.apple.m4a-audio": "audio",
  "public.mpeg-4-audio": "audio",
};

/**
 * The files of a message row as attachments (DESIGN §2.6), in their order. Left out: the parts of
 * a link preview (`*.pluginPayloadAttachment`, the data of an app's balloon, not something the
 * person sent) and files the server marks hidden. `sticker` says the row is a sticker placed on a
 * message (`associatedMessageType` "sticker"): its file is the sticker.
 */
export function attachmentsOf(files: readonly BlueBubblesAttachment[], sticker = false): Attachment[] {
  return files.filter((file) => !isPluginPayload(file) && file.hideAttachment !== true).map((f) => fileOf(f, sticker));
}

/** The kind iMessage shows a file as: a sticker by its row or flag, an audio message by its UTI, else by its type. */
export function kindOf(file: BlueBubblesAttachment, sticker = false): AttachmentKind {
  if (sticker || file.isSticker === true) return "sticker";
  const mime = (file.mimeType ?? "").toLowerCase();
  if (file.uti === AUDIO_MESSAGE_UTI || mime.startsWith("audio/x-caf") || /\.caf$/iu.test(file.transferName ?? "")) {
    return "voice";
  }
  if (mime.startsWith("image/")) return "image";
  if (mime.startsWith("video/")) return "video";
  if (mime.startsWith("audio/")) return "audio";
  return (mime === "" && UTI_KINDS[file.uti ?? ""]) || "file";
}

/**
 * One file. Its type and size only where the download serves the file as the server describes it:
 * a file the server converts on download (HEIC, CAF) gets its type from the download's answer.
 */
function fileOf(file: BlueBubblesAttachment, sticker: boolean): Attachment {
  const converted = CONVERTED_UTIS.has(file.uti ?? "") || CONVERTED_TYPES.test(file.mimeType ?? "");
  const duration = durationOf(file.metadata);
  return {
    kind: kindOf(file, sticker),
    ...(file.mimeType && !converted ? { mime: file.mimeType } : {}),
    ...(typeof file.totalBytes === "number" && file.totalBytes > 0 && !converted ? { size: file.totalBytes } : {}),
    ...(file.transferName ? { filename: file.transferName } : {}),
    ...(duration !== undefined ? { durationMs: duration } : {}),
    ...(positive(file.width) ? { width: Math.round(file.width) } : {}),
    ...(positive(file.height) ? { height: Math.round(file.height) } : {}),
    ...(file.guid ? { source: { guid: file.guid } } : {}),
  };
}

/** The data of an app's balloon (a link preview's image and metadata), which chat.db keeps as attachments. */
function isPluginPayload(file: BlueBubblesAttachment): boolean {
  return /\.pluginPayloadAttachment$/iu.test(file.transferName ?? "");
}

/** `metadata.duration` (seconds, from `mdls`) in milliseconds. */
function durationOf(metadata: unknown): number | undefined {
  const seconds = (metadata as { duration?: unknown } | null | undefined)?.duration;
  return typeof seconds === "number" && Number.isFinite(seconds) && seconds > 0
    ? Math.round(seconds * 1000)
    : undefined;
}

function positive(value: number | null | undefined): value is number {
  return typeof value === "number" && Number.isFinite(value) && value > 0;
}
