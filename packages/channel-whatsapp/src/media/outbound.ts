import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { tooLarge } from "@chorus/channel-kit";
import { formatBytes, type GeoLocation, type Logger, type OutboundMedium, sendLimitOf } from "@chorus/core";
import type { AnyMessageContent } from "@whiskeysockets/baileys";
import { WHATSAPP_MAX_DOCUMENT, whatsappMediaCapabilities } from "./capabilities.js";
import { findFfmpeg, transcodeToOpus } from "./ffmpeg.js";
import { headOf, isOggOpus, VOICE_HEAD_BYTES } from "./voice.js";

/** The MIME type WhatsApp gives voice notes (`AudioMessage.mimetype` with `ptt`, and Baileys' default for audio). */
export const VOICE_MIME = "audio/ogg; codecs=opus";

/** The kind a medium goes out as. */
export type UploadKind = OutboundMedium["kind"];

/** One medium as Baileys sends it. */
export interface PreparedMedium {
  /** The kind core planned it as. */
  readonly asked: UploadKind;
  /** The kind it goes out as (a voice note without ffmpeg: `audio`). */
  readonly sentAs: UploadKind;
  /** A caption the medium cannot carry on WhatsApp (audio, a sticker): a text message of its own, sent right before it. */
  readonly captionApart?: string;
  /** What the bot's message log keeps of it (its caption, else a note such as `[image]`). */
  readonly note: string;
  /** Baileys' content, its bytes opened afresh (a retry reads them again). */
  content(): AnyMessageContent;
}

/** How media are prepared. */
export interface MediaOptions {
  /** `ffmpegPath` from the config: the ffmpeg that turns other audio into a voice note. */
  readonly ffmpegPath?: string | undefined;
  readonly logger: Logger;
}

/**
 * Refuses, before anything is sent, a medium over the limit of the kind it goes out as (16 MB a
 * photo, video or audio; 500 KB a sticker; 2 GB a document): the media host would refuse it after
 * the upload, with part of the message out.
 */
export function checkMediaLimits(media: readonly OutboundMedium[]): void {
  for (const medium of media) {
    const limit = sendLimitOf(whatsappMediaCapabilities, medium.kind);
    if (medium.size <= limit) continue;
    const fallback =
      medium.kind === "sticker" ? "an image" : `a file (a document, up to ${formatBytes(WHATSAPP_MAX_DOCUMENT)})`;
    throw tooLarge(`"${medium.filename}"`, limit, medium.size, {
      kind: medium.kind,
      hint:
        medium.kind === "file"
          ? `WhatsApp takes documents of up to ${formatBytes(WHATSAPP_MAX_DOCUMENT)}.`
          : `WhatsApp takes ${medium.kind === "sticker" ? "stickers" : "this kind"} up to ${formatBytes(limit)}; send it as ${fallback}.`,
    });
  }
}

/**
 * A medium as WhatsApp message content (Baileys uploads it, encrypted, while sending): a photo,
 * video or document with its caption (a document with its file name), audio, a sticker (WebP;
 * anything else goes as a photo), a voice note as a PTT. WhatsApp plays a PTT only in Ogg/Opus:
 * other audio is transcoded with ffmpeg where one is found, else it goes out as an audio file
 * (`sentAs: "audio"`, with a warning).
 */
export async function prepareMedium(medium: OutboundMedium, options: MediaOptions): Promise<PreparedMedium> {
  const caption = medium.caption?.trim() ? medium.caption : undefined;
  const bytes = () => ({ stream: Readable.fromWeb(medium.open() as NodeReadableStream<Uint8Array>) });
  const withCaption = caption !== undefined ? { caption } : {};
  const prepared = (sentAs: UploadKind, content: () => AnyMessageContent, carries: boolean): PreparedMedium => ({
    asked: medium.kind,
    sentAs,
    ...(caption !== undefined && !carries ? { captionApart: caption } : {}),
    note: caption !== undefined && carries ? caption : `[${sentAs}]`,
    content,
  });
  switch (medium.kind) {
    case "image":
      return prepared("image", () => ({ image: bytes(), mimetype: medium.mime, ...withCaption }), true);
    case "video":
      return prepared("video", () => ({ video: bytes(), mimetype: medium.mime, ...withCaption }), true);
    case "file":
      return prepared(
        "file",
        () => ({ document: bytes(), mimetype: medium.mime, fileName: medium.filename, ...withCaption }),
        true,
      );
    case "audio":
      return prepared("audio", () => ({ audio: bytes(), mimetype: medium.mime, ptt: false }), false);
    case "sticker":
      if (baseMime(medium.mime) === "image/webp") {
        return prepared("sticker", () => ({ sticker: bytes(), mimetype: "image/webp" }), false);
      }
      options.logger.warn({ mime: medium.mime }, "whatsapp: a sticker that is no WebP goes out as a photo");
      return prepared("image", () => ({ image: bytes(), mimetype: medium.mime, ...withCaption }), true);
    case "voice":
      return prepareVoice(medium, options, prepared, bytes);
  }
}

async function prepareVoice(
  medium: OutboundMedium,
  options: MediaOptions,
  prepared: (sentAs: UploadKind, content: () => AnyMessageContent, carries: boolean) => PreparedMedium,
  bytes: () => { stream: Readable },
): Promise<PreparedMedium> {
  if (isOggOpus(await headOf(medium.open(), VOICE_HEAD_BYTES))) {
    return prepared("voice", () => ({ audio: bytes(), mimetype: VOICE_MIME, ptt: true }), false);
  }
  const ffmpeg = await findFfmpeg(options.ffmpegPath);
  if (ffmpeg) {
    return prepared(
      "voice",
      () => ({ audio: { stream: transcodeToOpus(ffmpeg, medium.open()) }, mimetype: VOICE_MIME, ptt: true }),
      false,
    );
  }
  options.logger.warn(
    { filename: medium.filename, mime: medium.mime },
    "whatsapp: a voice note that is no Ogg/Opus goes out as an audio file: no ffmpeg to transcode it (install ffmpeg, or set ffmpegPath)",
  );
  return prepared("audio", () => ({ audio: bytes(), mimetype: medium.mime, ptt: false }), false);
}

/** A location as a native pin (`LocationMessage`: degrees, and the place's name and address where given). */
export function locationContent(location: GeoLocation): AnyMessageContent {
  return {
    location: {
      degreesLatitude: location.latitude,
      degreesLongitude: location.longitude,
      ...(location.name ? { name: location.name } : {}),
      ...(location.address ? { address: location.address } : {}),
    },
  };
}

function baseMime(mime: string): string {
  return mime.split(";")[0]?.trim().toLowerCase() ?? "";
}
