import { tooLarge } from "@chorus/channel-kit";
import { formatBytes, type Logger, type OutboundMedium } from "@chorus/core";
import { FEISHU_MAX_FILE_BYTES, FEISHU_MAX_IMAGE_BYTES } from "./media.js";
import { imageFormat, mp4Facts, oggOpusFacts } from "./media-probe.js";
import type { Ffmpeg } from "./transcode.js";
import type { FeishuFileType, FeishuUploads } from "./upload.js";

/** A medium as a Feishu message: its `msg_type` and its content (a JSON string) naming what was uploaded. */
export interface MediumMessage {
  readonly msg_type: "image" | "file" | "audio" | "media";
  readonly content: string;
}

/** The limit of the upload a medium of `kind` goes out as: images 10 MB, everything else 30 MB. */
function limitOf(kind: OutboundMedium["kind"]): number {
  return kind === "image" || kind === "sticker" ? FEISHU_MAX_IMAGE_BYTES : FEISHU_MAX_FILE_BYTES;
}

/**
 * Refuses, before anything is sent, a medium over the limit of the upload it needs (上传图片 10 MB,
 * 上传文件 30 MB): Feishu would refuse it only after the upload, with part of the message out.
 */
export function checkMediaLimits(media: readonly OutboundMedium[]): void {
  for (const medium of media) {
    const limit = limitOf(medium.kind);
    if (medium.size <= limit) continue;
    throw tooLarge(`"${medium.filename}"`, limit, medium.size, {
      kind: medium.kind,
      hint:
        limit === FEISHU_MAX_IMAGE_BYTES
          ? `Feishu takes images of up to ${formatBytes(limit)}; send it as a file (up to ${formatBytes(FEISHU_MAX_FILE_BYTES)}).`
          : `Feishu takes uploads of up to ${formatBytes(limit)}.`,
    });
  }
}

/** `file_type` by the file's name (上传文件 knows pdf, doc, xls, ppt; `stream` is anything else). */
const FILE_TYPE_OF_EXTENSION: Record<string, FeishuFileType> = {
  pdf: "pdf",
  doc: "doc",
  docx: "doc",
  xls: "xls",
  xlsx: "xls",
  ppt: "ppt",
  pptx: "ppt",
};

/**
 * Makes each medium a Feishu message of its own kind, uploading what it needs (发送消息内容):
 * - an image: 上传图片, then `image` `{ image_key }`; bytes of a format Feishu's image upload
 *   refuses (SVG, AVIF, …) go as a file;
 * - a video: an MP4 uploaded with `file_type` `mp4` and its duration, then `media` `{ file_key,
 *   image_key }` with its first frame as the cover where ffmpeg can take it (without one where it
 *   cannot); another container goes as a file;
 * - a voice note: Ogg/Opus uploaded with `file_type` `opus` and its duration, then `audio`
 *   `{ file_key }`; other audio is converted to Opus with ffmpeg first, and where that cannot be
 *   done it goes as a file;
 * - anything else (a file, audio that is not a voice note): 上传文件 with its `file_type`, then `file`.
 * Whatever goes out as a file instead of its kind is logged with the reason.
 */
export function createMediaMessages(uploads: FeishuUploads, ffmpeg: Ffmpeg, logger: Logger) {
  const message = (msg_type: MediumMessage["msg_type"], content: Record<string, string>): MediumMessage => ({
    msg_type,
    content: JSON.stringify(content),
  });

  const asFile = async (medium: OutboundMedium, reason?: string): Promise<MediumMessage> => {
    if (reason) logger.warn({ filename: medium.filename, kind: medium.kind }, `feishu: sent as a file: ${reason}`);
    const extension = medium.filename.split(".").pop()?.toLowerCase() ?? "";
    const fileKey = await uploads.file(medium, FILE_TYPE_OF_EXTENSION[extension] ?? "stream");
    return message("file", { file_key: fileKey });
  };

  const image = async (medium: OutboundMedium): Promise<MediumMessage> => {
    if (!(await imageFormat(medium.open()))) {
      return asFile(medium, "Feishu's image upload takes JPG, PNG, WEBP, GIF, BMP, ICO, TIFF and HEIC only");
    }
    return message("image", { image_key: await uploads.image(medium) });
  };

  const video = async (medium: OutboundMedium): Promise<MediumMessage> => {
    const facts = await mp4Facts(medium.open());
    if (!facts.matches) return asFile(medium, "Feishu's video messages play MP4 only");
    const fileKey = await uploads.file(medium, "mp4", facts.durationMs);
    const cover = await ffmpeg.cover(medium);
    try {
      const imageKey = cover ? await uploads.image(cover) : undefined;
      return message("media", { file_key: fileKey, ...(imageKey ? { image_key: imageKey } : {}) });
    } finally {
      await cover?.dispose();
    }
  };

  const voice = async (medium: OutboundMedium): Promise<MediumMessage> => {
    const facts = await oggOpusFacts(medium.open());
    if (facts.matches) return message("audio", { file_key: await uploads.file(medium, "opus", facts.durationMs) });
    const opus = await ffmpeg.toOpus(medium);
    if (!opus) {
      const why = ffmpeg.usable ? "ffmpeg could not convert it" : "ffmpeg is not configured or not found";
      return asFile(medium, `Feishu's voice messages play Opus only, and ${why}`);
    }
    try {
      const converted = await oggOpusFacts(opus.open());
      return message("audio", { file_key: await uploads.file(opus, "opus", converted.durationMs) });
    } finally {
      await opus.dispose();
    }
  };

  return (medium: OutboundMedium): Promise<MediumMessage> => {
    switch (medium.kind) {
      case "image":
      case "sticker": // core plans stickers as images here (capabilities.media.send has no sticker)
        return image(medium);
      case "video":
        return video(medium);
      case "voice":
        return voice(medium);
      default:
        return asFile(medium);
    }
  };
}
