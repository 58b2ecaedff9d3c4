import type { Attachment } from "@chorus/core";
import { type AttachmentView, withoutSource } from "../state/index.js";
import { hasBytes, type ItemRecord } from "../understand/index.js";

/** Why an attachment of a message the access rules refuse was not downloaded. */
export const NOT_ALLOWED = "not downloaded: the channel's access rules do not let its sender in";

/**
 * An attachment as outside agents see it: what the platform said of it, and — once intake stored
 * it — its `mediaId` with what the bytes are (type, size and name from the store), or the `error`
 * that kept it out. Never the plugin's `source`.
 */
export function attachmentView(attachment: Attachment, item: ItemRecord | undefined): AttachmentView {
  const view = withoutSource(attachment);
  if (item?.mediaId !== undefined) {
    return {
      ...view,
      mediaId: item.mediaId,
      ...(item.mime !== undefined ? { mime: item.mime } : {}),
      ...(item.size !== undefined ? { size: item.size } : {}),
      ...(item.filename !== undefined ? { filename: item.filename } : {}),
    };
  }
  return item?.failed !== undefined ? { ...view, error: item.failed } : view;
}

/** The attachments of a message whose sender the access rules refuse: nothing downloaded, and why. */
export function refusedViews(attachments: readonly Attachment[]): AttachmentView[] {
  return attachments.map((a) => (hasBytes(a) ? { ...withoutSource(a), error: NOT_ALLOWED } : withoutSource(a)));
}
