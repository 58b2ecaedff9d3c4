import { constants } from "node:fs";
import { open, realpath, stat } from "node:fs/promises";
import { basename, isAbsolute, join, relative, sep } from "node:path";
import { streamOf, tooLarge } from "@chorus/channel-kit";
import { ChorusError, formatBytes, MAX_INLINE_MEDIA_BYTES, type MediaItemInput } from "@chorus/core";
import { fileStream } from "./file-stream.js";
import { filenameOfUrl, sanitizeFilename } from "./filename.js";
import type { MediaSettings } from "./settings.js";
import { safeId } from "./store.js";
import type { MediaStore, StoredMedium } from "./types.js";
import { fetchGuarded } from "./url-fetch.js";

/** What resolving a `send` item needs: the store, the settings, and the cap for this item. */
export interface SourceOptions {
  readonly store: MediaStore;
  readonly settings: MediaSettings;
  /** Bytes the item may have: `media.maxBytes`, or less where the channel takes less. */
  readonly maxBytes: number;
  /** Why that is the cap, for `E_TOO_LARGE` (`media are limited to 25 MB (media.maxBytes)`). */
  readonly limitNote: string;
  readonly signal?: AbortSignal | undefined;
}

/** A `send` item in the store: the medium, the name it goes out as, and a URL of its own a recipient can open. */
export interface ResolvedMedium {
  readonly medium: StoredMedium;
  readonly filename: string;
  /** The item's own `url` where it reached only public addresses. */
  readonly publicUrl?: string;
}

/**
 * DESIGN §2.6 rules 1–2: one item's bytes into the store from its one source — `url`, `path`,
 * `mediaId` or `data` — with the name it goes out as (`filename`, else the URL's or path's last
 * segment, else one from the kind and the sniffed type). Errors name the item (`media.0.url`).
 */
export async function resolveMediaItem(
  item: MediaItemInput,
  index: number,
  options: SourceOptions,
): Promise<ResolvedMedium> {
  const what = `media.${index}`;
  try {
    if (item.url !== undefined) return await mediumFromUrl(item.url, `${what}.url`, item.filename, options);
    if (item.path !== undefined) return await mediumFromPath(item.path, `${what}.path`, item.filename, options);
    if (item.mediaId !== undefined) return await mediumFromId(item.mediaId, `${what}.mediaId`, item.filename, options);
    if (item.data !== undefined) return await mediumFromData(item.data, `${what}.data`, item.filename, options);
  } catch (error) {
    // The cap reached while reading (or a size known before): said with why it is the cap.
    if (error instanceof ChorusError && error.code === "E_TOO_LARGE" && error.details?.limit === options.maxBytes) {
      const size = typeof error.details.size === "number" ? error.details.size : undefined;
      const said = size === undefined ? `is over ${formatBytes(options.maxBytes)}` : `is ${formatBytes(size)}`;
      throw new ChorusError("E_TOO_LARGE", `${what} ${said}; ${options.limitNote}.`, {
        details: { index, limit: options.maxBytes, ...(size !== undefined ? { size } : {}) },
      });
    }
    throw error;
  }
  throw new ChorusError("E_INVALID_INPUT", `${what}: give one of url, path, mediaId or data.`);
}

/** `url`: fetched with the address guard and the cap (DESIGN §2.6 rule 1). */
export async function mediumFromUrl(
  url: string,
  what: string,
  filename: string | undefined,
  options: SourceOptions,
): Promise<ResolvedMedium> {
  if (!URL.canParse(url)) throw new ChorusError("E_INVALID_INPUT", `${what} is not a URL.`);
  const fetched = await fetchGuarded(url, {
    policy: options.settings.policy,
    maxBytes: options.maxBytes,
    what,
    signal: options.signal,
    resolve: options.settings.resolve,
  });
  const name = filename ?? filenameOfUrl(new URL(url));
  const medium = await options.store.put(fetched.stream, {
    maxBytes: options.maxBytes,
    filename: name,
    signal: options.signal,
  });
  return { medium, filename: medium.filename, ...(fetched.public ? { publicUrl: url } : {}) };
}

/**
 * `path`: a regular file in `media.dir` (relative to it, or absolute inside it); `..` or a link
 * that leads out of it is refused, judged on the real path.
 */
export async function mediumFromPath(
  path: string,
  what: string,
  filename: string | undefined,
  options: SourceOptions,
): Promise<ResolvedMedium> {
  const { dir } = options.settings;
  const base = await realpath(dir).catch(() => {
    throw new ChorusError("E_INVALID_INPUT", `${what}: the media directory (media.dir) does not exist.`, {
      hint: `Create ${dir}, or set media.dir.`,
    });
  });
  const real = await realpath(isAbsolute(path) ? path : join(dir, path)).catch(() => {
    throw new ChorusError(
      "E_INVALID_INPUT",
      `${what}: there is no file ${JSON.stringify(path)} in the media directory.`,
    );
  });
  const inside = relative(base, real);
  if (inside === "" || inside === ".." || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
    throw new ChorusError(
      "E_INVALID_INPUT",
      `${what}: ${JSON.stringify(path)} is outside the media directory (media.dir).`,
      {
        hint: `Put the file in ${dir}.`,
      },
    );
  }
  const facts = await stat(real);
  if (!facts.isFile()) throw new ChorusError("E_INVALID_INPUT", `${what}: ${JSON.stringify(path)} is not a file.`);
  if (facts.size > options.maxBytes) throw tooLarge(what, options.maxBytes, facts.size);
  // The real path, never through a link at its end: a link swapped in after the check is not followed.
  const handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW);
  const medium = await options.store
    .put(
      fileStream(async () => handle),
      { maxBytes: options.maxBytes, filename: filename ?? sanitizeFilename(basename(real)), signal: options.signal },
    )
    .finally(() => handle.close().catch(() => undefined));
  return { medium, filename: medium.filename };
}

/** `mediaId`: a medium already in the store (an inbound attachment, an upload); nothing is copied. */
export async function mediumFromId(
  mediaId: string,
  what: string,
  filename: string | undefined,
  options: SourceOptions,
): Promise<ResolvedMedium> {
  const medium = await options.store.get(mediaId);
  if (!medium) {
    throw new ChorusError(
      "E_INVALID_INPUT",
      `${what}: there is no medium ${safeId(mediaId)} (never stored, or past its retention).`,
    );
  }
  if (medium.size > options.maxBytes) throw tooLarge(what, options.maxBytes, medium.size);
  return { medium, filename: (filename === undefined ? undefined : sanitizeFilename(filename)) ?? medium.filename };
}

/** `data`: base64 of at most 512 KiB (HTTP and MCP callers; more is `E_TOO_LARGE` pointing to `POST /v1/media`). */
export async function mediumFromData(
  data: string,
  what: string,
  filename: string | undefined,
  options: SourceOptions,
): Promise<ResolvedMedium> {
  const compact = data.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(compact)) throw new ChorusError("E_INVALID_INPUT", `${what} is not base64.`);
  const bytes = Buffer.from(compact, "base64");
  if (bytes.byteLength > MAX_INLINE_MEDIA_BYTES) {
    throw new ChorusError(
      "E_TOO_LARGE",
      `${what} holds ${formatBytes(bytes.byteLength)}; inline data is limited to ${formatBytes(MAX_INLINE_MEDIA_BYTES)}.`,
      {
        hint: "Upload the file with POST /v1/media and send its mediaId.",
        details: { size: bytes.byteLength, limit: MAX_INLINE_MEDIA_BYTES },
      },
    );
  }
  if (bytes.byteLength > options.maxBytes) throw tooLarge(what, options.maxBytes, bytes.byteLength);
  const medium = await options.store.put(streamOf(bytes), {
    maxBytes: options.maxBytes,
    filename,
    signal: options.signal,
  });
  return { medium, filename: medium.filename };
}
