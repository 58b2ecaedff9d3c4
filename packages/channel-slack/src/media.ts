import type { MediaCapabilities } from "@chorus/core";

const GB = 1024 * 1024 * 1024;

/**
 * Bytes of one file, sent or received: "Files uploaded to Slack can be up to 1 GB" (Slack Help
 * Center, "Add files to Slack", slack.com/help/articles/201330736). A workspace may restrict it
 * further; `files.getUploadURLExternal` then answers `file_upload_size_restricted` (method docs).
 */
export const SLACK_MAX_FILE_BYTES = 1 * GB;

/**
 * Files one message carries. Slack's clients attach up to 10 at a time; `files.completeUploadExternal`
 * has no documented limit but fails with `internal_error` past 14 (slackapi/python-slack-sdk#1653).
 */
export const SLACK_MAX_FILES = 10;

/**
 * What Slack does with media, as data (DESIGN §2.6). Every upload is a file: Slack shows images,
 * videos and audio inline by their type, and has no stickers, no voice notes a bot can send, and no
 * location pins (core falls back: a sticker goes as an image, a voice note as audio, a location as
 * text). Received: images, videos, audio, files, and the audio clips people record in Slack (file
 * `subtype: "slack_audio"`) as voice notes. Several files go in one message, its text the
 * `initial_comment` (the caption).
 */
export const slackMediaCapabilities: MediaCapabilities = {
  send: ["image", "video", "audio", "file"],
  receive: ["image", "video", "audio", "voice", "file"],
  maxSendBytes: SLACK_MAX_FILE_BYTES,
  maxReceiveBytes: SLACK_MAX_FILE_BYTES,
  caption: true,
  perMessage: SLACK_MAX_FILES,
};
