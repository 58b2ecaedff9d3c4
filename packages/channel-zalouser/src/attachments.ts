import type { Attachment, AttachmentKind } from "@chorus/core";

/** What `download` needs (an attachment's `source`): the medium's URL, or a sticker of Zalo's catalogue. */
export type ZaloMediaSource =
  | { readonly url: string }
  | { readonly sticker: { id: number; catId: number; type: number } };

/** The kind each of Zalo's message types with a medium is (`getClientMessageType` in zca-js lists them). */
const KINDS: Readonly<Record<string, AttachmentKind>> = {
  "chat.photo": "image",
  "chat.gif": "image",
  "chat.doodle": "image",
  "chat.video.msg": "video",
  "chat.voice": "voice",
  "share.file": "file",
  "chat.sticker": "sticker",
  "chat.location.new": "location",
};

/** A message's medium and the text it carries (a photo's description, a video's title), by its type. */
export interface ReadMedium {
  readonly attachments: readonly Attachment[];
  readonly caption: string;
}

/**
 * The medium of a message whose `content` is an object (zca-js `TAttachmentContent`, src/fixtures/
 * SOURCES.md): its `href` is the medium's URL, `params` a JSON string (a string or an object is
 * read) with what Zalo says of it — a photo's `width`/`height`, a file's `fileSize` (a string), a
 * video's `duration` (ms), `width`, `height`. A file's name is its `title`, a photo's or video's
 * caption its `title` (else `description`); a sticker is `{ id, catId, type }`; a location's
 * `params` hold `latitude`/`longitude`, its `title` the name, its `description` the address.
 * Undefined for a type without a medium (a link, a contact card) or a location without coordinates.
 */
export function readMedium(msgType: string, content: Record<string, unknown>): ReadMedium | undefined {
  const kind = KINDS[msgType];
  if (!kind) return undefined;
  const params = paramsOf(content.params);
  const title = text(content.title);
  const description = text(content.description);
  if (kind === "location") {
    const latitude = number(params.latitude);
    const longitude = number(params.longitude);
    if (latitude === undefined || longitude === undefined) return undefined;
    const location = {
      latitude,
      longitude,
      ...(title && { name: title }),
      ...(description && { address: description }),
    };
    return { attachments: [{ kind, location }], caption: "" };
  }
  if (kind === "sticker") {
    const [id, catId, type] = [number(content.id), number(content.catId), number(content.type)];
    const source = id === undefined ? undefined : { sticker: { id, catId: catId ?? 0, type: type ?? 0 } };
    return { attachments: [{ kind, ...(source && { source }) }], caption: "" };
  }
  const url = text(content.href);
  const size = number(params.fileSize);
  const width = number(params.width);
  const height = number(params.height);
  const durationMs = kind === "video" ? number(params.duration) : undefined;
  const attachment: Attachment = {
    kind,
    ...(kind === "file" && title && { filename: title }),
    ...(size !== undefined && Number.isSafeInteger(size) && size >= 0 && { size }),
    ...(durationMs !== undefined && durationMs > 0 && { durationMs }),
    ...(width !== undefined && width > 0 && { width }),
    ...(height !== undefined && height > 0 && { height }),
    ...(url && { source: { url } }),
  };
  const said = kind === "image" || kind === "video" ? (title ?? description ?? "") : "";
  return { attachments: [attachment], caption: said === url ? "" : said };
}

/** `params`: Zalo's JSON string, or already an object; anything else reads as empty. */
function paramsOf(value: unknown): Record<string, unknown> {
  if (value !== null && typeof value === "object") return value as Record<string, unknown>;
  if (typeof value !== "string" || value.trim() === "") return {};
  try {
    const parsed = JSON.parse(value) as unknown;
    return parsed !== null && typeof parsed === "object" ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A non-empty string. */
function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

/** A finite number, also from Zalo's numeric strings (`"7295"`). */
function number(value: unknown): number | undefined {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof n === "number" && Number.isFinite(n) ? n : undefined;
}
