import { capStream, tooLarge } from "@chorus/channel-kit";
import { type Attachment, ChorusError, type DownloadedMedium, type DownloadOptions } from "@chorus/core";
import { MEDIUM_ID, noLongerKept, type WebchatMedia } from "./media-store.js";
import type { WebchatMedium } from "./types.js";

/**
 * The webchat's `download`: an attachment's bytes (`source` is the medium's id, `medium` finds it
 * among the kept messages) from the gateway's media store, so any gateway of a cluster the webchat
 * moved to serves it; read as the gateway reads them and capped at `maxBytes` by the kit's
 * `capStream`. A medium over the cap fails before a byte is read.
 */
export function createWebchatDownload(
  media: WebchatMedia,
  medium: (id: string) => WebchatMedium | undefined,
): (attachment: Attachment, options: DownloadOptions) => Promise<DownloadedMedium> {
  return async (attachment, { maxBytes, signal }) => {
    const id = attachment.source;
    if (typeof id !== "string" || !MEDIUM_ID.test(id)) {
      throw new ChorusError("E_INVALID_INPUT", "this attachment is not a webchat medium (its source is no medium id)");
    }
    const what = `the webchat medium "${attachment.filename ?? id}"`;
    const mediaId = medium(id)?.mediaId;
    const size = mediaId === undefined ? undefined : await media.size(mediaId);
    if (mediaId === undefined || size === undefined) throw noLongerKept(what);
    if (size > maxBytes) throw tooLarge(what, maxBytes, size);
    signal?.throwIfAborted();
    const stream = capStream(await media.open(mediaId, {}, signal), maxBytes, what);
    return { stream, size, ...(attachment.mime !== undefined ? { mime: attachment.mime } : {}) };
  };
}
