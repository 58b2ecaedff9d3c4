import { ChorusError, formatBytes, type UploadKind } from "@chorus/core";

/** Bytes of one medium at most, either way (`WEBCHAT_MEDIA` in `plugin.ts` says why this much). */
export const MAX_MEDIUM_BYTES = 25 * 1024 * 1024;

/** Media on one message at most. */
export const MAX_ATTACHMENTS = 10;

/** Every kind of medium with bytes, as the webchat sends and receives them all. */
export const UPLOAD_KINDS: readonly UploadKind[] = ["image", "video", "audio", "voice", "file", "sticker"];

const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,63}$/u;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
const UNSAFE_IN_NAME = /[\u0000-\u001f\u007f-\u009f\u2028\u2029/\\]/gu;
const MAX_FILENAME = 200;

/** A MIME type as given (lower case, no parameters) when it is well-formed, else `application/octet-stream`. */
export function cleanMime(mime: string | undefined): string {
  const base = (mime ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  return MIME.test(base) ? base : "application/octet-stream";
}

/** What a medium of `mime` is shown as: pictures, videos and sounds as themselves (never SVG), the rest as files. */
export function kindOfMime(mime: string): UploadKind {
  if (mime.startsWith("image/") && !mime.includes("svg")) return "image";
  if (mime.startsWith("video/")) return "video";
  if (mime.startsWith("audio/")) return "audio";
  return "file";
}

/** A file name safe to show and to send in a header: no path, no control characters, at most 200 characters. */
export function cleanFilename(name: string | undefined, fallback: string): string {
  const last = (name ?? "").split(/[/\\]/u).pop() ?? "";
  const clean = last.replace(UNSAFE_IN_NAME, "_").trim();
  const short = [...clean].slice(0, MAX_FILENAME).join("");
  return short === "" || short === "." || short === ".." ? fallback : short;
}

/** Whether the page may show a medium of `mime` inline (pictures, audio, video; never SVG) rather than offer it as a download. */
export function showsInline(mime: string): boolean {
  return /^(image|audio|video)\//u.test(mime) && !mime.includes("svg");
}

/** `E_TOO_LARGE` for a medium over the webchat's limit, naming it, its size and the limit. */
export function mediumTooLarge(filename: string, size: number, limit = MAX_MEDIUM_BYTES): ChorusError {
  const most = formatBytes(limit);
  const over = formatBytes(size) === most ? `is over ${most}` : `is ${formatBytes(size)}`;
  return new ChorusError("E_TOO_LARGE", `"${filename}" ${over}; the webchat takes media up to ${most}.`, {
    details: { size, limit },
  });
}
