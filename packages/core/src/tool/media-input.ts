import { z } from "zod";
import { ChorusError } from "../errors.js";
import { formatBytes } from "../media/format.js";
import { MEDIA_KINDS } from "../media/kinds.js";

/** Items of one `send` call (DESIGN §2). */
export const MAX_MEDIA_PER_SEND = 10;

/** Bytes `data` may hold once decoded: it must fit the HTTP API's default 1 MiB JSON body. */
export const MAX_INLINE_MEDIA_BYTES = 512 * 1024;

/** The sources of one medium; a call gives exactly one of them (DESIGN §2.6 rule 1). */
export const MEDIA_SOURCES = ["url", "path", "mediaId", "data"] as const;
export type MediaSource = (typeof MEDIA_SOURCES)[number];

/** Longest base64 string accepted before decoding; the decoded size is checked against `MAX_INLINE_MEDIA_BYTES`. */
const MAX_DATA_CHARS = 4 * 1024 * 1024;

const describedSources = {
  url: "http(s) URL the gateway fetches (public addresses only).",
  path: "File in the gateway's media directory (relative, or absolute inside it).",
  mediaId: "A medium in the gateway's store: an attachment you were sent (its mediaId), or one uploaded to /v1/media.",
  data: `The bytes, base64 (at most ${formatBytes(MAX_INLINE_MEDIA_BYTES)}; larger files: upload to /v1/media and pass its mediaId).`,
};

/** Kinds a `send` item can be sent as (`as`): every medium but a location, which has its own parameter. */
export const UPLOAD_KINDS = MEDIA_KINDS.filter((kind) => kind !== "location") as [
  "image",
  "video",
  "audio",
  "voice",
  "file",
  "sticker",
];

export const mediaItemSchema = z
  .object({
    url: z.string().min(1).max(4096).describe(describedSources.url).optional(),
    path: z.string().min(1).max(4096).describe(describedSources.path).optional(),
    mediaId: z.string().min(1).max(128).describe(describedSources.mediaId).optional(),
    data: z.string().min(1).max(MAX_DATA_CHARS).describe(describedSources.data).optional(),
    as: z.enum(UPLOAD_KINDS).describe("Send it as this kind; default: the kind its bytes are.").optional(),
    filename: z.string().min(1).max(255).describe("The file name people see.").optional(),
    caption: z.string().max(4096).describe("A caption for this item.").optional(),
  })
  .strict()
  .superRefine((item, ctx) => {
    const given = MEDIA_SOURCES.filter((source) => item[source] !== undefined);
    if (given.length !== 1) {
      ctx.addIssue({
        code: "custom",
        message:
          given.length === 0
            ? "give one of url, path, mediaId or data"
            : `give only one of url, path, mediaId or data (got ${given.join(" and ")})`,
      });
    }
    if (item.url !== undefined && !/^https?:\/\//i.test(item.url)) {
      ctx.addIssue({ code: "custom", path: ["url"], message: "must be an http or https URL" });
    }
    if (item.filename !== undefined && /[/\\\0]/.test(item.filename)) {
      ctx.addIssue({ code: "custom", path: ["filename"], message: "must be a name, not a path" });
    }
  });

export type MediaItemInput = z.infer<typeof mediaItemSchema>;

export const locationSchema = z
  .object({
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
    name: z.string().min(1).max(256).optional(),
    address: z.string().min(1).max(512).optional(),
  })
  .strict();

export const mediaListSchema = z.array(mediaItemSchema).min(1).max(MAX_MEDIA_PER_SEND);

/**
 * `data` past `MAX_INLINE_MEDIA_BYTES` once decoded → `E_TOO_LARGE` pointing to `POST /v1/media`
 * (DESIGN §2.6 rule 1); not base64 → `E_INVALID_INPUT` naming the item.
 */
export function checkInlineMedia(media: readonly MediaItemInput[] | undefined): void {
  media?.forEach((item, index) => {
    if (item.data === undefined) return;
    const compact = item.data.replace(/\s+/g, "");
    if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(compact)) {
      throw new ChorusError("E_INVALID_INPUT", `media.${index}.data is not base64.`, {
        details: { issues: [{ path: ["media", String(index), "data"], message: "not base64" }] },
      });
    }
    const bytes = Math.floor((compact.replace(/=+$/, "").length * 3) / 4);
    if (bytes > MAX_INLINE_MEDIA_BYTES) {
      throw new ChorusError(
        "E_TOO_LARGE",
        `media.${index}.data holds ${formatBytes(bytes)}; inline data is limited to ${formatBytes(MAX_INLINE_MEDIA_BYTES)}.`,
        {
          hint: "Upload the file with POST /v1/media and send its mediaId.",
          details: { index, size: bytes, limit: MAX_INLINE_MEDIA_BYTES },
        },
      );
    }
  });
}
