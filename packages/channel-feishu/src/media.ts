import type { MediaCapabilities } from "@chorus/core";

const MB = 1024 * 1024;

/** The largest image `POST /open-apis/im/v1/images` takes: "上传的图片大小不能超过 10 MB" (上传图片, im-v1/image/create). */
export const FEISHU_MAX_IMAGE_BYTES = 10 * MB;
/** The largest file `POST /open-apis/im/v1/files` takes: "文件大小不得超过 30 MB，且不允许上传空文件" (上传文件, im-v1/file/create). */
export const FEISHU_MAX_FILE_BYTES = 30 * MB;
/** The largest resource the message-resource API serves: "仅支持下载 100 MB 以内的资源文件" (获取消息中的资源文件, im-v1/message-resource/get). */
export const FEISHU_MAX_DOWNLOAD_BYTES = 100 * MB;

/**
 * What Feishu / Lark does with media, as data (DESIGN §2.6). A bot sends an image (`image`, from
 * an upload of at most 10 MB), a video (`media`: an MP4 upload with its duration and a cover), a
 * voice note (`audio`: an Opus upload with its duration) and any file (`file`, at most 30 MB); one
 * medium per message and no caption (the text goes first, as a message of its own). Audio that is
 * not a voice note falls back to a file (Feishu's `audio` message is a voice recording), a sticker
 * to an image (Feishu sends only stickers it delivered, by key, and never lets an app download one),
 * a location to text (bots cannot send location messages). Images, files, voice messages, videos
 * (also inside rich text) and locations arrive as attachments; downloads go up to 100 MB.
 */
export const feishuMediaCapabilities: MediaCapabilities = {
  send: ["image", "video", "voice", "file"],
  receive: ["image", "video", "voice", "file", "location"],
  maxSendBytes: FEISHU_MAX_FILE_BYTES,
  maxSendBytesByKind: { image: FEISHU_MAX_IMAGE_BYTES }, // DESIGN §2.6's own example: images 10 MB, files 30 MB
  maxReceiveBytes: FEISHU_MAX_DOWNLOAD_BYTES,
  caption: false, // image, file, audio and media messages carry no text
  perMessage: 1, // each carries one medium
};
