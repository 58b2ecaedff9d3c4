import type { AttachmentKind } from "@chorus/core";

/** Bytes from the start of a medium that sniffing looks at (file-type's formats need at most a few KB). */
export const SNIFF_BYTES = 64 * 1024;

/** What the bytes are: the kind, the MIME type (without parameters) and a file name extension. */
export interface Sniffed {
  readonly kind: AttachmentKind;
  readonly mime: string;
  readonly ext: string;
}

/** Image formats platforms show as pictures; other `image/*` types (PSD, ICO…) are files. */
const PICTURES = new Set([
  "image/jpeg",
  "image/png",
  "image/gif",
  "image/webp",
  "image/bmp",
  "image/heic",
  "image/heif",
  "image/avif",
  "image/tiff",
  "image/apng",
]);

type FileType = typeof import("file-type");
let fileType: Promise<FileType> | undefined;

/**
 * What a medium is, from its first bytes (DESIGN §2.6 rule 2: never from a name or a header):
 * file-type's signatures (loaded on first use), else plain UTF-8 text, else
 * `application/octet-stream`. `complete` says whether `head` is the whole medium.
 */
export async function sniffMedium(head: Uint8Array, complete: boolean): Promise<Sniffed> {
  fileType ??= import("file-type");
  const found = head.byteLength > 0 ? await (await fileType).fileTypeFromBuffer(head) : undefined;
  if (found) {
    const mime = found.mime.split(";")[0]?.trim() ?? found.mime;
    // Opus in Ogg is an `.ogg` file to people and platforms alike.
    return { kind: kindOfMime(mime), mime, ext: found.ext === "opus" ? "ogg" : found.ext };
  }
  if (head.byteLength > 0 && isText(head, complete)) return { kind: "file", mime: "text/plain", ext: "txt" };
  return { kind: "file", mime: "application/octet-stream", ext: "bin" };
}

/** The kind of a sniffed MIME type: pictures, video and audio (Ogg/Opus too), else a file. */
export function kindOfMime(mime: string): AttachmentKind {
  if (PICTURES.has(mime)) return "image";
  if (mime.startsWith("video/")) return "video";
  if (mime.startsWith("audio/")) return "audio";
  return "file";
}

/** Valid UTF-8 without NUL or other control characters than tab, line breaks and form feed. */
function isText(head: Uint8Array, complete: boolean): boolean {
  for (const byte of head) {
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c) return false;
    if (byte === 0x7f) return false;
  }
  try {
    // A head cut in the middle of a character is still text: `stream` keeps the cut part pending.
    new TextDecoder("utf-8", { fatal: true }).decode(head, { stream: !complete });
    return true;
  } catch {
    return false;
  }
}
