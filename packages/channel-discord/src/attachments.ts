import type { Attachment, AttachmentKind } from "@chorus/core";
import {
  type Attachment as DiscordAttachment,
  type Message,
  MessageFlags,
  type Sticker,
  StickerFormatType,
} from "discord.js";
import type { DiscordMediaSource } from "./media.js";

/**
 * The media of a message as attachments (DESIGN §2.6): each of its `attachments` (resources/
 * message.mdx "Attachment Object": `content_type`, `width`/`height`, `duration_secs`, `waveform`
 * are optional), then each of its `sticker_items`. A message flagged IS_VOICE_MESSAGE (1 << 13)
 * holds one audio attachment: a voice note. Without the MESSAGE_CONTENT intent a guild message
 * arrives without attachments (unless it mentions the bot).
 */
export function attachmentsOf(message: Message): Attachment[] {
  const voice = message.flags.has(MessageFlags.IsVoiceMessage);
  return [
    ...[...message.attachments.values()].map((attachment) => fromAttachment(attachment, voice)),
    ...[...message.stickers.values()].map(fromSticker),
  ];
}

function fromAttachment(attachment: DiscordAttachment, voiceMessage: boolean): Attachment {
  const mime = attachment.contentType?.split(";")[0]?.trim().toLowerCase() || undefined;
  const voice = voiceMessage && (mime === undefined || mime.startsWith("audio/"));
  const source: DiscordMediaSource = {
    url: attachment.url,
    id: attachment.id,
    ...(attachment.proxyURL ? { proxyUrl: attachment.proxyURL } : {}),
  };
  return {
    kind: voice ? "voice" : kindOf(mime, attachment.name),
    ...(mime ? { mime } : {}),
    ...(Number.isSafeInteger(attachment.size) ? { size: attachment.size } : {}),
    ...(attachment.name ? { filename: attachment.name } : {}),
    ...(typeof attachment.duration === "number" ? { durationMs: Math.round(attachment.duration * 1000) } : {}),
    ...(typeof attachment.width === "number" ? { width: attachment.width } : {}),
    ...(typeof attachment.height === "number" ? { height: attachment.height } : {}),
    source,
  };
}

/**
 * A sticker (resources/sticker.mdx "Sticker Item Object": id, name, format_type), at the CDN's
 * `stickers/<id>.<ext>` (developers/reference.mdx "CDN Endpoints"): PNG and APNG as `.png`, Lottie
 * as `.json`, GIF as `.gif` on the media proxy — discord.js' `Sticker#url` builds it from `cdnUrl`
 * and `mediaProxyUrl`.
 */
function fromSticker(sticker: Sticker): Attachment {
  // A sticker item names no media type: the download's Content-Type (and the gateway's sniffing) tell it.
  const extension = STICKER_EXTENSIONS[sticker.format] ?? "png";
  const source: DiscordMediaSource = { url: sticker.url, id: sticker.id };
  return { kind: "sticker", filename: `${sticker.name}.${extension}`, source };
}

const STICKER_EXTENSIONS: Partial<Record<StickerFormatType, string>> = {
  [StickerFormatType.PNG]: "png",
  [StickerFormatType.APNG]: "png",
  [StickerFormatType.Lottie]: "json",
  [StickerFormatType.GIF]: "gif",
};

/** The kind of a file from its media type, else from its name's extension (`content_type` is optional). */
function kindOf(mime: string | undefined, filename: string | undefined): AttachmentKind {
  const type = mime ?? TYPE_OF_EXTENSION[filename?.split(".").pop()?.toLowerCase() ?? ""];
  if (type?.startsWith("image/")) return "image";
  if (type?.startsWith("video/")) return "video";
  if (type?.startsWith("audio/")) return "audio";
  return "file";
}

const TYPE_OF_EXTENSION: Record<string, string> = {
  png: "image/",
  jpg: "image/",
  jpeg: "image/",
  gif: "image/",
  webp: "image/",
  avif: "image/",
  mp4: "video/",
  mov: "video/",
  webm: "video/",
  mp3: "audio/",
  ogg: "audio/",
  opus: "audio/",
  wav: "audio/",
  m4a: "audio/",
  flac: "audio/",
};
