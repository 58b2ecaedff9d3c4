import type { Attachment } from "@chorus/core";
import { kindOfType, LONG_TEXT_TYPE } from "./media.js";
import type { SignalAttachment, SignalDataMessage, SignalSticker } from "./wire.js";

/**
 * What `download` needs (the attachment's `source`): a file the daemon keeps, by its `id` with the
 * sender or group `getAttachment` names it by; or a sticker, by pack and number (`getSticker`).
 */
export type SignalFileSource =
  | { readonly id: string; readonly recipient?: string; readonly groupId?: string }
  | { readonly sticker: SignalSticker };

/** Where a message came from, as `getAttachment` is told (`--recipient` or `--group-id`). */
export interface AttachmentOrigin {
  readonly sender: string;
  readonly groupId?: string | undefined;
}

/**
 * A message's files and sticker as attachments (DESIGN §2.6), in Signal's order. The kind follows
 * the content type, as Signal's clients show it; a voice note is `voice` only where the daemon
 * says so (`isVoiceNote`, signal-cli after 0.14.6), else `audio`. A long body that Signal sent as
 * a `text/x-signal-plain` file is already the message's text (signal-cli reads it into `message`),
 * so it is not an attachment. Only what signal-cli states is set: a sticker has no type or size.
 */
export function attachmentsOf(data: SignalDataMessage, origin: AttachmentOrigin): Attachment[] {
  const files = (data.attachments ?? []).filter((a) => a.contentType !== LONG_TEXT_TYPE).map((a) => fileOf(a, origin));
  const sticker = data.sticker ? [{ kind: "sticker" as const, source: { sticker: { ...data.sticker } } }] : [];
  return [...files, ...sticker];
}

/** Captions Signal carried on the files themselves (older clients put the text there, not in the body). */
export function captionsOf(data: SignalDataMessage): string[] {
  return (data.attachments ?? []).map((a) => a.caption ?? "").filter((caption) => caption.trim() !== "");
}

function fileOf(attachment: SignalAttachment, origin: AttachmentOrigin): Attachment {
  const { contentType, filename, id, size, width, height } = attachment;
  const source: SignalFileSource | undefined = id
    ? { id, ...(origin.groupId ? { groupId: origin.groupId } : { recipient: origin.sender }) }
    : undefined;
  return {
    kind: kindOfType(contentType, attachment.isVoiceNote === true),
    ...(contentType ? { mime: contentType } : {}),
    ...(typeof size === "number" ? { size } : {}),
    ...(filename ? { filename } : {}),
    ...(typeof width === "number" && width > 0 ? { width } : {}),
    ...(typeof height === "number" && height > 0 ? { height } : {}),
    ...(source ? { source: { ...source } } : {}),
  };
}
