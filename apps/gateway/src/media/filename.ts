import type { AttachmentKind } from "@chorus/core";

/** Longest file name kept, in characters (file systems and platforms take 255 bytes; names are cut well under). */
const MAX_NAME = 120;

/**
 * A name people see, made safe to show and to put in a header: no path, no control or
 * direction-changing characters (a right-to-left override can make `gpj.exe` read `exe.jpg`), no
 * leading dots, spaces collapsed, at most `MAX_NAME` characters (the extension kept). Undefined
 * when nothing is left.
 */
export function sanitizeFilename(name: string): string | undefined {
  const last = name.split(/[/\\]/).pop() ?? "";
  const cleaned = last
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g, "")
    .replace(/[<>:"|?*]/g, "_")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^\.+/, "")
    .trim();
  if (cleaned === "") return undefined;
  if (cleaned.length <= MAX_NAME) return cleaned;
  const dot = cleaned.lastIndexOf(".");
  const ext = dot > 0 && cleaned.length - dot <= 12 ? cleaned.slice(dot) : "";
  return `${[...cleaned.slice(0, cleaned.length - ext.length)]
    .slice(0, MAX_NAME - ext.length)
    .join("")
    .trimEnd()}${ext}`;
}

/** The last segment of a URL's path, decoded and sanitised; undefined when the path ends in `/`. */
export function filenameOfUrl(url: URL): string | undefined {
  const segment = url.pathname.split("/").pop() ?? "";
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // a malformed escape: the raw segment, sanitised like any other name
  }
  return sanitizeFilename(decoded);
}

/** A name made from the kind and the sniffed type, when nothing else gave one (`image.png`). */
export function defaultFilename(kind: AttachmentKind, ext: string): string {
  return `${kind}.${ext}`;
}
