import type { MediaCapabilities } from "@chorus/core";
import type { IMessageConfig } from "./config.js";

const MiB = 1024 * 1024;

/**
 * The largest file BlueBubbles Server takes in one upload: its koa-body parser's formidable
 * `maxFileSize: 1024 * 1024 * 1024` (bluebubbles-server `packages/server/src/server/api/http/index.ts`);
 * past it the server answers HTTP 500 "maxFileSize exceeded, received … bytes of file data".
 * Apple documents no iMessage attachment limit, so this is the one limit a bot meets.
 */
export const BLUEBUBBLES_MAX_UPLOAD_BYTES = 1024 * MiB;

/**
 * The largest attachment downloaded: the server sets none on `GET /attachment/:guid/download`
 * (it streams the file from disk), so the same 1 GiB as its uploads; the gateway's own
 * `media.maxBytes` (25 MiB by default) applies first.
 */
export const BLUEBUBBLES_MAX_DOWNLOAD_BYTES = 1024 * MiB;

/**
 * Media of one message with the Private API: `POST /api/v1/message/multipart` sets no limit on its
 * `parts` (`MessageValidator.validateMultipart`), and one `message` tool call carries at most 10
 * media, so one call is one iMessage.
 */
export const IMESSAGE_MAX_PER_MESSAGE = 10;

/**
 * What arrives: photos (HEIC already JPEG: the server converts it on download), videos, audio
 * files, audio messages (`voice`: their `uti` is `com.apple.coreaudio-format`), any other file,
 * and stickers placed on a message (rows of `associatedMessageType` "sticker").
 */
const RECEIVE: MediaCapabilities["receive"] = ["image", "video", "audio", "voice", "file", "sticker"];

/**
 * With the Private API (`sendMethod` `private-api`, or `auto`, the default): media go through the
 * helper, several with their captions in one iMessage (`/attachment/upload`, then
 * `/message/multipart`), a voice note alone as an audio message (`/message/attachment` with
 * `isAudioMessage`). BlueBubbles sends no stickers and no location pins: a sticker goes out as an
 * image, a location as text.
 */
export const imessagePrivateApiMedia: MediaCapabilities = {
  send: ["image", "video", "audio", "voice", "file"],
  receive: RECEIVE,
  maxSendBytes: BLUEBUBBLES_MAX_UPLOAD_BYTES,
  maxReceiveBytes: BLUEBUBBLES_MAX_DOWNLOAD_BYTES,
  caption: true,
  perMessage: IMESSAGE_MAX_PER_MESSAGE,
};

/**
 * With AppleScript only (`sendMethod: "apple-script"`): one file per `/message/attachment`, with
 * no text (the route has no text field, so a caption is a message of its own, sent first), and no
 * audio messages (`isAudioMessage` reaches only the Private API helper; AppleScript sends the file
 * as a file, so a voice note goes out as audio).
 */
export const imessageAppleScriptMedia: MediaCapabilities = {
  send: ["image", "video", "audio", "file"],
  receive: RECEIVE,
  maxSendBytes: BLUEBUBBLES_MAX_UPLOAD_BYTES,
  maxReceiveBytes: BLUEBUBBLES_MAX_DOWNLOAD_BYTES,
  caption: false,
  perMessage: 1,
};

/**
 * What an account can do with media, by how it sends: `apple-script` as AppleScript can;
 * `private-api` and `auto` as the Private API can (`auto` without a usable Private API sends
 * everything still, one file per message, captions first as text, voice notes as audio files).
 */
export function imessageMediaFor(config: Pick<IMessageConfig, "sendMethod">): MediaCapabilities {
  return config.sendMethod === "apple-script" ? imessageAppleScriptMedia : imessagePrivateApiMedia;
}
