import type { Attachment, AttachmentKind } from "@chorus/core";
import type { MediaType, proto } from "@whiskeysockets/baileys";
import { contactCardOf } from "./vcard.js";

/**
 * What `download` needs of a WhatsApp medium (the attachment's `source`): where the media host
 * keeps it (`directPath`), the key it is encrypted with and the hashes it must match. `type`
 * names the keys the media key expands to (Baileys' `MediaType`: `image`, `video`, `audio`,
 * `document`, `sticker`, `ptv`). Byte fields are base64.
 */
export interface WhatsAppMediaSource {
  readonly type: MediaType;
  readonly directPath: string;
  readonly mediaKey: string;
  readonly fileEncSha256?: string;
  readonly fileSha256?: string;
  readonly fileLength?: number;
}

/** The media types `attachmentsOf` writes into a source: the keys each expands its media key with. */
export const MEDIA_TYPES: readonly MediaType[] = ["image", "video", "ptv", "audio", "document", "sticker"];

/** The fields every WhatsApp media message has (WAProto `ImageMessage`, `AudioMessage`, …). */
interface MediaFields {
  mimetype?: string | null;
  fileLength?: number | Long | null;
  mediaKey?: Uint8Array | string | null;
  directPath?: string | null;
  fileEncSha256?: Uint8Array | string | null;
  fileSha256?: Uint8Array | string | null;
}

/** protobufjs' 64-bit integer, as Baileys decodes `uint64` fields. */
interface Long {
  toNumber(): number;
}

/**
 * The media of a message (wrappers already removed) as attachments, in core's kinds (DESIGN
 * §2.6): a photo, a video (also a GIF, sent as MP4, and a round video note), audio or — marked
 * `ptt` — a voice note, a document (with its file name), a sticker, a location (a live location
 * as where it was when shared), and contact cards (one per card of a contacts array). Only what
 * the message states is set; `seconds` become milliseconds.
 */
export function attachmentsOf(content: proto.IMessage | undefined): Attachment[] {
  if (!content) return [];
  if (content.imageMessage) {
    const image = content.imageMessage;
    return [medium("image", "image", image, sized(image.width, image.height))];
  }
  const video = content.videoMessage ?? content.ptvMessage;
  if (video) {
    const type: MediaType = content.videoMessage ? "video" : "ptv";
    return [medium("video", type, video, { ...sized(video.width, video.height), ...duration(video.seconds) })];
  }
  const audio = content.audioMessage;
  if (audio) return [medium(audio.ptt ? "voice" : "audio", "audio", audio, duration(audio.seconds))];
  const document = content.documentMessage;
  if (document) {
    const filename = nonEmpty(document.fileName) ?? nonEmpty(document.title);
    return [medium("file", "document", document, filename ? { filename } : {})];
  }
  const sticker = content.stickerMessage;
  if (sticker) {
    const facts = { mime: nonEmpty(sticker.mimetype) ?? "image/webp", ...sized(sticker.width, sticker.height) };
    return [medium("sticker", "sticker", sticker, facts)];
  }
  const place = content.locationMessage ?? content.liveLocationMessage;
  if (place) return locationOf(place, content.locationMessage ?? undefined);
  const cards = content.contactMessage ? [content.contactMessage] : (content.contactsArrayMessage?.contacts ?? []);
  return cards.flatMap((card) => {
    const contact = contactCardOf(card);
    return contact ? [{ kind: "contact" as const, contact }] : [];
  });
}

/** What a person wrote with a medium: the caption of a photo, video or document, the comment on a live location. */
export function captionOf(content: proto.IMessage | undefined): string | undefined {
  if (!content) return undefined;
  return (
    nonEmpty(content.imageMessage?.caption) ??
    nonEmpty(content.videoMessage?.caption) ??
    nonEmpty(content.documentMessage?.caption) ??
    nonEmpty(content.liveLocationMessage?.caption) ??
    nonEmpty(content.locationMessage?.comment)
  );
}

function medium(kind: AttachmentKind, type: MediaType, fields: MediaFields, facts: Partial<Attachment>): Attachment {
  const size = wholeNumber(fields.fileLength);
  const mime = nonEmpty(fields.mimetype);
  const source = sourceOf(type, fields, size);
  return {
    kind,
    ...(mime ? { mime } : {}),
    ...facts,
    ...(size !== undefined ? { size } : {}),
    ...(source ? { source: { ...source } } : {}),
  };
}

/** The download facts, where the message has what downloading needs (a direct path and a media key). */
function sourceOf(type: MediaType, fields: MediaFields, size: number | undefined): WhatsAppMediaSource | undefined {
  const directPath = nonEmpty(fields.directPath);
  const mediaKey = base64(fields.mediaKey);
  if (!directPath || !mediaKey) return undefined;
  const fileEncSha256 = base64(fields.fileEncSha256);
  const fileSha256 = base64(fields.fileSha256);
  return {
    type,
    directPath,
    mediaKey,
    ...(fileEncSha256 ? { fileEncSha256 } : {}),
    ...(fileSha256 ? { fileSha256 } : {}),
    ...(size !== undefined ? { fileLength: size } : {}),
  };
}

function locationOf(
  place: { degreesLatitude?: number | null; degreesLongitude?: number | null },
  pin: proto.Message.ILocationMessage | undefined,
): Attachment[] {
  const { degreesLatitude: latitude, degreesLongitude: longitude } = place;
  if (typeof latitude !== "number" || typeof longitude !== "number") return [];
  const name = nonEmpty(pin?.name);
  const address = nonEmpty(pin?.address);
  return [
    {
      kind: "location",
      location: { latitude, longitude, ...(name ? { name } : {}), ...(address ? { address } : {}) },
    },
  ];
}

function sized(width: number | null | undefined, height: number | null | undefined): Partial<Attachment> {
  return {
    ...(typeof width === "number" && width > 0 ? { width } : {}),
    ...(typeof height === "number" && height > 0 ? { height } : {}),
  };
}

function duration(seconds: number | null | undefined): Partial<Attachment> {
  return typeof seconds === "number" && seconds > 0 ? { durationMs: seconds * 1000 } : {};
}

/** A protobuf integer (a number or a `Long`) as a number; undefined when absent. */
function wholeNumber(value: number | Long | null | undefined): number | undefined {
  if (typeof value === "number") return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (value && typeof value.toNumber === "function") return wholeNumber(value.toNumber());
  return undefined;
}

/** Bytes as Baileys decodes them (a `Uint8Array`), or already base64 (a message read back from JSON). */
function base64(value: Uint8Array | string | null | undefined): string | undefined {
  if (typeof value === "string") return value === "" ? undefined : value;
  return value && value.byteLength > 0 ? Buffer.from(value).toString("base64") : undefined;
}

function nonEmpty(value: string | null | undefined): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}
