import type { MediaCapabilities } from "@chorus/core";
import type { NextcloudConfig } from "./config.js";

const MB = 1024 * 1024;

/**
 * The server's default upload limit: "The default maximum file size for uploads is 512MB"
 * (nextcloud/documentation, admin_manual/configuration_files/big_file_upload_configuration.rst;
 * `upload_max_filesize`/`post_max_size` 512M in Nextcloud's `.user.ini`, `client_max_body_size
 * 512M` in its nginx example). `channels.nextcloud.files.maxUploadBytes` says where an admin
 * changed it.
 */
export const NEXTCLOUD_DEFAULT_UPLOAD_BYTES = 512 * MB;

/**
 * The largest shared file the bot downloads. Talk itself sets none (clients upload in chunks, past
 * the server's limit: same manual page, the note on the sync client), so this is the default upload
 * limit again; the gateway's own `media.maxBytes` (25 MB by default) applies first anyway.
 */
export const NEXTCLOUD_MAX_RECEIVE_BYTES = NEXTCLOUD_DEFAULT_UPLOAD_BYTES;

/**
 * What people share that arrives as attachments: files (spreed `SystemMessage::getFileFromShare`,
 * the `{file}` rich object — its kind follows its `mimetype`; voice messages are audio files whose
 * `voice-message` type the webhook does not carry) and locations (the `geo-location` rich object
 * of `object_shared`). A file's bytes need `files` (the bot API has no file access).
 */
const RECEIVE: MediaCapabilities["receive"] = ["image", "video", "audio", "file", "location"];

/**
 * Talk's bot API posts text and reactions only (spreed `docs/bots.md`: `POST /bot/{token}/message`
 * and `/reaction/{messageId}`), so by default media go out as links (DESIGN §2.6 rule 3: core
 * writes a `filename: url` line with the gateway's signed media link) and locations as text.
 */
export const nextcloudLinkCapabilities: MediaCapabilities = {
  send: [],
  receive: RECEIVE,
  maxSendBytes: 0,
  maxReceiveBytes: NEXTCLOUD_MAX_RECEIVE_BYTES,
  caption: false,
  perMessage: 1,
  linkOnly: true,
};

/**
 * With `files` (a Nextcloud user and app password for the bot), media are uploaded over WebDAV
 * and shared into the conversation (OCS `shareType: 10`): one file per share (spreed `docs/chat.md`,
 * "Share a file to the chat"), the text as its caption (`talkMetaData.caption`, capability
 * `media-caption`), a voice note as `messageType: voice-message`. Talk shows a shared file by its
 * type, so images, videos and audio go out as what they are; a sticker falls back to an image.
 */
export function nextcloudFilesCapabilities(maxUploadBytes = NEXTCLOUD_DEFAULT_UPLOAD_BYTES): MediaCapabilities {
  return {
    send: ["image", "video", "audio", "voice", "file"],
    receive: RECEIVE,
    maxSendBytes: maxUploadBytes,
    maxReceiveBytes: NEXTCLOUD_MAX_RECEIVE_BYTES,
    caption: true,
    perMessage: 1,
  };
}

/**
 * What an account with `config` can do with media. The plugin's `capabilities` are one value for
 * every account, so they declare the link-only default; this is what a per-account capabilities
 * hook of the gateway would read (see the README, "Media").
 */
export function nextcloudMediaFor(config: Pick<NextcloudConfig, "files">): MediaCapabilities {
  return config.files ? nextcloudFilesCapabilities(config.files.maxUploadBytes) : nextcloudLinkCapabilities;
}
