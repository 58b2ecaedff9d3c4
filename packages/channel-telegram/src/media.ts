import type { MediaCapabilities } from "@chorus/core";

const MB = 1024 * 1024;

/** The largest upload of one request (multipart/form-data, "50 MB for other files", Bot API, Sending files). */
export const TELEGRAM_MAX_UPLOAD = 50 * MB;
/** The largest photo `sendPhoto` takes ("The photo must be at most 10 MB in size", Bot API, sendPhoto). */
export const TELEGRAM_MAX_PHOTO = 10 * MB;
/** The largest file `getFile` lets a bot download (`MAX_DOWNLOAD_FILE_SIZE = 20 << 20`, telegram-bot-api Client.h). */
export const TELEGRAM_MAX_DOWNLOAD = 20 * MB;
/** Characters of a caption ("0-1024 characters after entities parsing", Bot API, sendPhoto). */
export const TELEGRAM_MAX_CAPTION = 1024;
/** Items of one album ("must include 2-10 items", Bot API, sendMediaGroup). */
export const TELEGRAM_MAX_ALBUM = 10;

/**
 * What Telegram does with media, as data (DESIGN §2.6). Every kind goes out natively (a voice note
 * as OGG/Opus with `sendVoice`, a sticker as WebP/TGS/WEBM with `sendSticker`, a location as a pin)
 * and comes in as an attachment, contact cards too. One request uploads at most 50 MB, so an album
 * is kept under that in all (`maxMessageBytes`); a photo at most 10 MB (a larger image goes out as
 * a file, core's rule 4). A bot downloads files of up to 20 MB.
 */
export const telegramMediaCapabilities: MediaCapabilities = {
  send: ["image", "video", "audio", "voice", "file", "sticker", "location"],
  receive: ["image", "video", "audio", "voice", "file", "sticker", "location", "contact"],
  maxSendBytes: TELEGRAM_MAX_UPLOAD,
  maxSendBytesByKind: { image: TELEGRAM_MAX_PHOTO },
  maxReceiveBytes: TELEGRAM_MAX_DOWNLOAD,
  caption: true,
  perMessage: TELEGRAM_MAX_ALBUM,
  maxMessageBytes: TELEGRAM_MAX_UPLOAD,
};
