import { capStream, tooLarge } from "@chorus/channel-kit";
import { type Attachment, ChorusError, type DownloadedMedium, type DownloadOptions } from "@chorus/core";
import { MEDIUM_ID, type MediaFiles } from "./media-files.js";

/**
 * The webchat's `download`: an attachment's bytes from its file in the state dir (`source` is the
 * medium's id), read as the gateway reads them and capped at `maxBytes` by the kit's `capStream`;
 * a file over the cap fails before a byte is read.
 */
export function createWebchatDownload(
  files: MediaFiles,
): (attachment: Attachment, options: DownloadOptions) => Promise<DownloadedMedium> {
  return async (attachment, { maxBytes, signal }) => {
    const id = attachment.source;
    if (typeof id !== "string" || !MEDIUM_ID.test(id)) {
      throw new ChorusError("E_INVALID_INPUT", "this attachment is not a webchat medium (its source is no medium id)");
    }
    const what = `the webchat medium "${attachment.filename ?? id}"`;
    const size = await files.size(id);
    if (size === undefined) {
      throw new ChorusError("E_MESSAGE_NOT_FOUND", `${what} is no longer kept`, {
        hint: "Its message left the room's history, or the webchat moved to another gateway.",
      });
    }
    if (size > maxBytes) throw tooLarge(what, maxBytes, size);
    signal?.throwIfAborted();
    const stream = capStream(files.open(id, {}, signal), maxBytes, what);
    return { stream, size, ...(attachment.mime !== undefined ? { mime: attachment.mime } : {}) };
  };
}
