import type { Attachment, AttachmentKind } from "@chorus/core";
import type { Message, PhotoSize, Sticker } from "grammy/types";

/** What `download` needs of a Telegram file (`getFile` takes the `file_id`); the attachment's `source`. */
export interface TelegramFileSource {
  fileId: string;
  /** The same for every bot and over time (Telegram's `file_unique_id`), where the update carries it. */
  fileUniqueId?: string;
}

/** Fields every Telegram file object has (`file_unique_id` is missing from Telegram's oldest examples). */
interface FileFields {
  file_id: string;
  file_unique_id?: string;
  file_size?: number;
}

/**
 * The medium of a message as attachments (DESIGN §2.6), in core's kinds: a message carries at most
 * one (an album is several messages, merged by `mergeAlbum`). Only what Telegram states is set:
 * photos have no `mime_type` (Telegram stores them re-encoded as JPEG), video notes and stickers
 * neither (a sticker's type follows from `is_animated` / `is_video`). Durations are seconds on the
 * wire. An animation (GIF as MP4) and a video note (round video) are videos; a venue is a location
 * with its name and address; both also carry the field they extend (`document`, `location`), which
 * is not a second attachment.
 */
export function attachmentsOf(message: Message): Attachment[] {
  const one = attachmentOf(message);
  return one ? [one] : [];
}

function attachmentOf(message: Message): Attachment | undefined {
  if (message.photo && message.photo.length > 0) {
    const largest = largestPhoto(message.photo);
    return file("image", largest, sized(largest.width, largest.height));
  }
  const animation = message.animation;
  if (animation) return file("video", animation, visual(animation, animation.mime_type, animation.file_name));
  if (message.video)
    return file("video", message.video, visual(message.video, message.video.mime_type, message.video.file_name));
  const note = message.video_note;
  if (note) return file("video", note, { ...sized(note.length, note.length), ...duration(note.duration) });
  const audio = message.audio;
  if (audio) return file("audio", audio, described(audio.mime_type, audio.file_name, audio.duration));
  const voice = message.voice;
  if (voice) return file("voice", voice, described(voice.mime_type, undefined, voice.duration));
  const document = message.document;
  if (document) return file("file", document, described(document.mime_type, document.file_name, undefined));
  if (message.sticker) return file("sticker", message.sticker, sticker(message.sticker));
  const venue = message.venue;
  if (venue) {
    const { latitude, longitude } = venue.location;
    return { kind: "location", location: { latitude, longitude, name: venue.title, address: venue.address } };
  }
  if (message.location) {
    const { latitude, longitude } = message.location;
    return { kind: "location", location: { latitude, longitude } };
  }
  const contact = message.contact;
  if (contact) {
    const name = [contact.first_name, contact.last_name].filter(Boolean).join(" ") || contact.phone_number;
    return {
      kind: "contact",
      contact: { name, phones: [contact.phone_number], ...(contact.vcard ? { vcard: contact.vcard } : {}) },
    };
  }
  return undefined;
}

/** The largest size of a photo: Telegram lists thumbnails first, but the order is not promised. */
function largestPhoto(sizes: readonly PhotoSize[]): PhotoSize {
  const area = (size: PhotoSize) => size.width * size.height;
  return sizes.reduce((best, size) =>
    area(size) > area(best) || (area(size) === area(best) && (size.file_size ?? 0) > (best.file_size ?? 0))
      ? size
      : best,
  );
}

function file(kind: AttachmentKind, object: FileFields, facts: Partial<Attachment>): Attachment {
  const source: TelegramFileSource = {
    fileId: object.file_id,
    ...(object.file_unique_id !== undefined ? { fileUniqueId: object.file_unique_id } : {}),
  };
  return {
    kind,
    ...facts,
    ...(typeof object.file_size === "number" ? { size: object.file_size } : {}),
    source: { ...source },
  };
}

function visual(
  media: { width: number; height: number; duration: number },
  mime: string | undefined,
  filename: string | undefined,
): Partial<Attachment> {
  return { ...sized(media.width, media.height), ...described(mime, filename, media.duration) };
}

/** Width and height where the update has them (a field is set only when it has a value). */
function sized(width: unknown, height: unknown): Partial<Attachment> {
  return {
    ...(typeof width === "number" ? { width } : {}),
    ...(typeof height === "number" ? { height } : {}),
  };
}

function described(
  mime: string | undefined,
  filename: string | undefined,
  seconds: number | undefined,
): Partial<Attachment> {
  return { ...(mime ? { mime } : {}), ...(filename ? { filename } : {}), ...duration(seconds) };
}

function duration(seconds: number | undefined): Partial<Attachment> {
  return typeof seconds === "number" ? { durationMs: seconds * 1000 } : {};
}

/** A sticker's type, from its flags: WEBM video, TGS (gzipped Lottie) animation, else a WebP image. */
function sticker(sticker: Sticker): Partial<Attachment> {
  const mime = sticker.is_video ? "video/webm" : sticker.is_animated ? "application/x-tgsticker" : "image/webp";
  return { mime, ...sized(sticker.width, sticker.height) };
}

/** A short note naming a message's medium (`[photo]`), for a reply to a message without text. */
export function mediumNote(message: Message): string | undefined {
  const [attachment] = attachmentsOf(message);
  if (!attachment) return undefined;
  const names: Record<AttachmentKind, string> = {
    image: "photo",
    video: "video",
    audio: "audio",
    voice: "voice message",
    file: "file",
    sticker: "sticker",
    location: "location",
    contact: "contact",
  };
  return `[${names[attachment.kind]}]`;
}
