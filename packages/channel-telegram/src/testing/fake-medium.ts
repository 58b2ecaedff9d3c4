import type { MediaKind } from "@chorus/core";
import type { PlatformMedium, PlatformMessageMedia } from "@chorus/testkit";
import type { Message, PhotoSize } from "grammy/types";
import type { FakeFile, FakeFiles, FakeFileType } from "./fake-files.js";
import { dimensionsOf, stickerFormat } from "./fake-sniff.js";

/** What a medium's message fields say beyond its file (whole seconds, as the Bot API counts them). */
export interface MediumFacts {
  duration?: number;
  caption?: string;
  /** A sticker's emoji. */
  emoji?: string;
}

/** A photo's thumbnail side: Telegram's smallest size ("s") is at most 90 px. */
const THUMBNAIL = 90;

/**
 * The message fields of a medium stored as `file`, in the shapes the Bot API sends (telegram-bot-api
 * `Client.cpp`: JsonPhotoSize, JsonVideo, JsonAnimation, JsonVideoNote, JsonAudio, JsonVoiceNote,
 * JsonDocument, JsonSticker): a photo is an array of sizes, the smallest first, each its own file (a
 * thumbnail the fake makes of the first bytes, then the photo as uploaded); an animation also
 * carries `document`; file ids are strings, sizes and durations numbers.
 */
export function mediumFields(
  files: FakeFiles,
  type: FakeFileType,
  file: FakeFile,
  facts: MediumFacts = {},
): Partial<Message> {
  const base = files.fields(file);
  const named = {
    ...(file.filename !== undefined ? { file_name: file.filename } : {}),
    mime_type: file.mime,
  };
  const seconds = facts.duration ?? 1;
  const { width, height } = dimensionsOf(file.bytes) ?? { width: 640, height: 480 };
  const caption =
    facts.caption !== undefined && type !== "sticker" && type !== "video_note" ? { caption: facts.caption } : {};
  switch (type) {
    case "photo":
      return { photo: photoSizes(files, file, width, height), ...caption };
    case "video":
      return { video: { ...base, duration: seconds, width, height, ...named }, ...caption };
    case "animation":
      return {
        animation: { ...base, duration: seconds, width, height, ...named },
        document: { ...base, ...named },
        ...caption,
      } as Partial<Message>;
    case "video_note":
      return { video_note: { ...base, duration: seconds, length: Math.min(width, height) } };
    case "audio":
      return { audio: { ...base, duration: seconds, ...named }, ...caption };
    case "voice":
      return { voice: { ...base, duration: seconds, mime_type: file.mime }, ...caption };
    case "document":
      return { document: { ...base, ...named }, ...caption };
    case "sticker": {
      const format = stickerFormat(file.bytes);
      return {
        sticker: {
          ...base,
          type: "regular",
          width,
          height,
          is_animated: format === "animated",
          is_video: format === "video",
          ...(facts.emoji !== undefined ? { emoji: facts.emoji } : {}),
        },
      } as Partial<Message>;
    }
  }
}

function photoSizes(files: FakeFiles, file: FakeFile, width: number, height: number): PhotoSize[] {
  const scale = Math.min(1, THUMBNAIL / Math.max(width, height));
  const thumb = files.add("photo", file.bytes.slice(0, Math.max(1, Math.floor(file.bytes.byteLength / 4))), file.mime);
  return [
    {
      ...files.fields(thumb),
      width: Math.max(1, Math.round(width * scale)),
      height: Math.max(1, Math.round(height * scale)),
    },
    { ...files.fields(file), width, height },
  ];
}

/** The fields of a message that hold a file, in the order `mediumOf` looks at them, with the kind they are in core's words. */
const FILE_FIELDS: [keyof Message, MediaKind][] = [
  ["animation", "video"],
  ["video", "video"],
  ["video_note", "video"],
  ["audio", "audio"],
  ["voice", "voice"],
  ["document", "file"],
  ["sticker", "sticker"],
];

/** What a message holds, media-wise, as the contract suite reads it: its medium (the photo's largest size) with the bytes stored. */
export function platformMedium(files: FakeFiles, message: Message): PlatformMedium | undefined {
  const caption = message.caption !== undefined ? { caption: message.caption } : {};
  if (message.photo && message.photo.length > 0) {
    const largest = message.photo.reduce((a, b) => (b.width * b.height >= a.width * a.height ? b : a));
    const stored = files.byId(largest.file_id);
    return stored ? { kind: "image", bytes: stored.bytes, ...named(stored), ...caption } : undefined;
  }
  for (const [field, kind] of FILE_FIELDS) {
    const object = message[field] as { file_id?: string } | undefined;
    const stored = object?.file_id !== undefined ? files.byId(object.file_id) : undefined;
    if (stored) return { kind, bytes: stored.bytes, ...named(stored), ...caption };
  }
  return undefined;
}

/** The media of messages (an album's, in order), their location and text, as `MediaContractHooks.sentMessage` gives them. */
export function platformMessageMedia(files: FakeFiles, messages: readonly Message[]): PlatformMessageMedia {
  const media = messages.map((m) => platformMedium(files, m)).filter((m): m is PlatformMedium => m !== undefined);
  const first = messages[0];
  const place = first?.venue?.location ?? first?.location;
  const venue = first?.venue ? { name: first.venue.title, address: first.venue.address } : {};
  return {
    media,
    ...(place ? { location: { latitude: place.latitude, longitude: place.longitude, ...venue } } : {}),
    ...(first?.text !== undefined ? { text: first.text } : {}),
  };
}

function named(file: FakeFile): { filename?: string } {
  return file.filename !== undefined ? { filename: file.filename } : {};
}

/** Every message of the album `message` is in (itself alone when it is in none), in order. */
export function albumOf(messages: Iterable<Message>, message: Message): Message[] {
  const group = message.media_group_id;
  if (group === undefined) return [message];
  return [...messages]
    .filter((m) => m.chat.id === message.chat.id && m.media_group_id === group)
    .sort((a, b) => a.message_id - b.message_id);
}
