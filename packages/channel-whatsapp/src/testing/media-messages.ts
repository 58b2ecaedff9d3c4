import type { ContactCard, GeoLocation } from "@chorus/core";
import { normalizeMessageContent, type proto } from "@whiskeysockets/baileys";
import { type FakeContext, reportProblem } from "./context.js";
import { fakeInputError } from "./errors.js";
import { decryptMedium, encryptMedium, type MediaKeyInfo } from "./media-crypto.js";

/** What a phone shares: a medium with its bytes, a place (a pin, or a live location), or a contact card. */
export interface PhoneMediumInput {
  /** Core's kind, or `live-location` (a location the phone keeps updating). */
  kind: "image" | "video" | "audio" | "voice" | "file" | "sticker" | "location" | "live-location" | "contact";
  bytes?: Uint8Array;
  /** Default: what a phone writes for the kind (`image/jpeg`, `audio/ogg; codecs=opus` for a voice note, …). */
  mime?: string;
  /** A document's file name. */
  filename?: string;
  /** A photo's, video's or document's caption; a live location's comment. */
  caption?: string;
  location?: GeoLocation;
  contact?: ContactCard;
  /** Seconds of audio or video. */
  seconds?: number;
  width?: number;
  height?: number;
}

/** A medium of a message as the fake holds it, decrypted with the message's key. */
export interface FakeMedium {
  /** Core's kind: `image`, `video`, `audio`, `voice` (a PTT), `file` (a document), `sticker`. */
  kind: "image" | "video" | "audio" | "voice" | "file" | "sticker";
  /** The message type (`imageMessage`, `audioMessage`, …). */
  type: string;
  bytes: Buffer;
  mimetype?: string;
  fileName?: string;
  caption?: string;
  /** The direct path the message names. */
  directPath: string;
}

/** Per core kind: the message field, the key info, the upload path, and the type phones write. */
const KINDS = {
  image: { field: "imageMessage", info: "Image", mms: "image", mime: "image/jpeg" },
  video: { field: "videoMessage", info: "Video", mms: "video", mime: "video/mp4" },
  audio: { field: "audioMessage", info: "Audio", mms: "audio", mime: "audio/mpeg" },
  voice: { field: "audioMessage", info: "Audio", mms: "audio", mime: "audio/ogg; codecs=opus" },
  file: { field: "documentMessage", info: "Document", mms: "document", mime: "application/octet-stream" },
  sticker: { field: "stickerMessage", info: "Image", mms: "image", mime: "image/webp" },
} as const satisfies Record<FakeMedium["kind"], { field: string; info: MediaKeyInfo; mms: string; mime: string }>;

/**
 * The message a phone sends when it shares `input`: a medium encrypted with a fresh media key and
 * uploaded to the fake's media host (so the message carries `url`, `directPath`, `mediaKey`, both
 * hashes and the length, as WAProto's media messages do), a `locationMessage` /
 * `liveLocationMessage`, or a `contactMessage` whose vCard is written the way phones write it.
 */
export function phoneMediumMessage(ctx: FakeContext, input: PhoneMediumInput): proto.IMessage {
  const { kind } = input;
  if (kind === "location" || kind === "live-location") {
    const place = input.location;
    if (!place) throw fakeInputError(`a ${kind} needs \`location\``);
    const at = { degreesLatitude: place.latitude, degreesLongitude: place.longitude };
    if (kind === "live-location") {
      return {
        liveLocationMessage: { ...at, ...(input.caption ? { caption: input.caption } : {}), sequenceNumber: 1 },
      };
    }
    return {
      locationMessage: {
        ...at,
        ...(place.name ? { name: place.name } : {}),
        ...(place.address ? { address: place.address } : {}),
      },
    };
  }
  if (kind === "contact") {
    if (!input.contact) throw fakeInputError("a contact needs `contact`");
    return { contactMessage: { displayName: input.contact.name, vcard: vcardOf(input.contact) } };
  }
  if (!input.bytes) throw fakeInputError(`a ${kind} needs \`bytes\``);
  const spec = KINDS[kind];
  const encrypted = encryptMedium(input.bytes, spec.info);
  const hosted = ctx.media.store(encrypted.enc, spec.mms);
  const fields = {
    url: ctx.media.urlOf(hosted),
    mimetype: input.mime ?? spec.mime,
    fileSha256: encrypted.fileSha256,
    fileLength: encrypted.fileLength,
    mediaKey: encrypted.mediaKey,
    fileEncSha256: encrypted.fileEncSha256,
    directPath: hosted.directPath,
    mediaKeyTimestamp: Math.floor(Date.now() / 1000),
  };
  const shape = {
    ...(input.width ? { width: input.width } : {}),
    ...(input.height ? { height: input.height } : {}),
    ...(input.seconds ? { seconds: input.seconds } : {}),
  };
  const caption = input.caption ? { caption: input.caption } : {};
  switch (kind) {
    case "image":
    case "video":
      return { [spec.field]: { ...fields, ...shape, ...caption } };
    case "audio":
    case "voice":
      return { audioMessage: { ...fields, ...shape, ptt: kind === "voice" } };
    case "file": {
      const fileName = input.filename ?? "file";
      return { documentMessage: { ...fields, fileName, title: fileName, ...caption } };
    }
    case "sticker":
      return {
        stickerMessage: { ...fields, width: input.width ?? 512, height: input.height ?? 512, isAnimated: false },
      };
  }
}

/**
 * The medium of a message (wrappers removed) as its recipients' phones read it: the bytes the
 * media host holds at its direct path, decrypted with its media key and checked (MAC, hashes,
 * length). A medium that fails a check is a problem of the fake (`fake.problems`) and undefined.
 */
export function mediumOfMessage(ctx: FakeContext, raw: proto.IMessage): FakeMedium | undefined {
  const content = normalizeMessageContent(raw) ?? raw;
  const found = (Object.entries(KINDS) as [FakeMedium["kind"], (typeof KINDS)[FakeMedium["kind"]]][]).find(
    ([kind, spec]) => {
      const value = content[spec.field];
      if (!value) return false;
      return (
        spec.field !== "audioMessage" || (kind === "voice") === ((value as proto.Message.IAudioMessage).ptt === true)
      );
    },
  );
  if (!found) return undefined;
  const [kind, spec] = found;
  const message = content[spec.field] as {
    directPath?: string | null;
    mediaKey?: Uint8Array | null;
    fileEncSha256?: Uint8Array | null;
    fileSha256?: Uint8Array | null;
    fileLength?: number | { toNumber(): number } | null;
    mimetype?: string | null;
    fileName?: string | null;
    caption?: string | null;
  };
  const directPath = message.directPath ?? "";
  const hosted = ctx.media.find(directPath);
  if (!hosted || !message.mediaKey) {
    reportProblem(
      ctx,
      `the ${spec.field} names a medium the media host does not hold (${directPath || "no direct path"})`,
    );
    return undefined;
  }
  const length = message.fileLength;
  const plain = decryptMedium(hosted.enc, spec.info, {
    mediaKey: message.mediaKey,
    fileEncSha256: message.fileEncSha256,
    fileSha256: message.fileSha256,
    ...(length !== null && length !== undefined
      ? { fileLength: typeof length === "number" ? length : length.toNumber() }
      : {}),
  });
  if (!Buffer.isBuffer(plain)) {
    reportProblem(ctx, `the ${spec.field} at ${hosted.path} cannot be read: ${plain.problem}`);
    return undefined;
  }
  return {
    kind,
    type: spec.field,
    bytes: plain,
    directPath,
    ...(message.mimetype ? { mimetype: message.mimetype } : {}),
    ...(message.fileName ? { fileName: message.fileName } : {}),
    ...(message.caption ? { caption: message.caption } : {}),
  };
}

/** A contact card as WhatsApp phones write it: vCard 3.0, each number with its `waid`. */
function vcardOf(contact: ContactCard): string {
  const phones = (contact.phones ?? []).map(
    (phone, index) =>
      `item${index + 1}.TEL;waid=${phone.replace(/\D/g, "")}:${phone}\nitem${index + 1}.X-ABLabel:Mobile`,
  );
  return ["BEGIN:VCARD", "VERSION:3.0", `N:;${contact.name};;;`, `FN:${contact.name}`, ...phones, "END:VCARD"].join(
    "\n",
  );
}
