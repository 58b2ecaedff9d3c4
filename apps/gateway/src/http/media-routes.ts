import { type ChorusError, formatBytes, isChorusError } from "@chorus/core";
import type { Context, Hono } from "hono";
import type { Logger } from "pino";
import type { MediaLinks, MediaStore, StoredMedium } from "../media/index.js";
import { bearerMatches } from "./auth.js";
import { discardBound } from "./body-limit.js";
import { cappedBody, discardBody, MULTIPART_OVERHEAD, requestBody, takeMultipartFile } from "./media-upload.js";
import { httpStatusFor } from "./status.js";

/** `/v1/media` (DESIGN §6): the store, its signed links, and the limit of one medium. */
export interface MediaApi {
  store: MediaStore;
  links: Pick<MediaLinks, "link" | "verify">;
  /** `media.maxBytes`. */
  maxBytes: number;
}

export interface MediaRoutesOptions {
  token: string;
  logger: Logger;
  /** Without it `/v1/media` answers 409. */
  media?: MediaApi | undefined;
}

/** How long the rest of a refused upload is read before its 413 anyway. */
const DISCARD_MS = 5_000;

/**
 * `POST /v1/media` (the raw bytes, or multipart with the field `file`, streamed into the store up to
 * `media.maxBytes` — not the JSON body limit) and `GET /v1/media/<id>` (with the bearer token, or a
 * signed link without it). Registered before the body limit and the API's token check, which it
 * does itself. A medium is served so it never runs on the gateway's origin: `nosniff`, a sandbox
 * CSP, and inline only for pictures, audio and video.
 */
export function registerMediaRoutes(app: Hono, options: MediaRoutesOptions): void {
  const refusedToken = (c: Context) =>
    c.json(errorBody("E_AUTH", "missing or wrong bearer token (gateway.auth.token)"), 401);

  app.post("/v1/media", async (c) => {
    if (!bearerMatches(c.req.header("authorization"), options.token)) return refusedToken(c);
    const media = options.media;
    if (!media) return c.json(errorBody("E_DISABLED", "no media store"), 409);
    const contentType = c.req.header("content-type") ?? "application/octet-stream";
    const multipart = /^multipart\/form-data\b/i.test(contentType);
    const limit = media.maxBytes + (multipart ? MULTIPART_OVERHEAD : 0);
    const tooLarge = () => {
      c.header("connection", "close");
      return c.json(
        errorBody("E_TOO_LARGE", `The medium is over ${formatBytes(media.maxBytes)}, the limit (media.maxBytes).`),
        413,
      );
    };
    const declared = Number(c.req.header("content-length") ?? Number.NaN);
    const body = requestBody(c);
    if (declared > limit && c.req.header("transfer-encoding") === undefined) {
      if (body && declared <= discardBound(limit)) await discardBody(body, discardBound(limit), DISCARD_MS);
      return tooLarge();
    }
    if (!body) return c.json(errorBody("E_INVALID_INPUT", "the request has no body (the medium's bytes)"), 400);
    const capped = cappedBody(body, limit, "The upload");
    let stored: StoredMedium;
    try {
      stored = multipart
        ? await takeMultipartFile(capped.stream, contentType, (part) =>
            media.store.put(part.stream, { maxBytes: media.maxBytes, filename: part.filename }),
          )
        : await media.store.put(capped.stream, {
            maxBytes: media.maxBytes,
            filename: c.req.query("filename") ?? filenameOfDisposition(c.req.header("content-disposition")),
          });
    } catch (error) {
      if (!isChorusError(error)) throw error;
      await capped.discardRest(discardBound(limit), DISCARD_MS);
      if (error.code === "E_TOO_LARGE") return tooLarge();
      return c.json({ ok: false, error: error.toJSON() }, httpStatusFor(error.code));
    }
    const url = media.links.link(stored.mediaId);
    return c.json({
      ok: true,
      mediaId: stored.mediaId,
      kind: stored.kind,
      mime: stored.mime,
      size: stored.size,
      filename: stored.filename,
      ...(url ? { url } : {}),
    });
  });

  app.get("/v1/media/:id", async (c) => {
    const media = options.media;
    if (!media) return c.json(errorBody("E_DISABLED", "no media store"), 409);
    const mediaId = c.req.param("id");
    if (!bearerMatches(c.req.header("authorization"), options.token)) {
      const exp = c.req.query("exp");
      const sig = c.req.query("sig");
      if (exp === undefined && sig === undefined) return refusedToken(c);
      // One answer for a wrong, tampered or expired link: nothing says which.
      if (!media.links.verify(mediaId, exp, sig))
        return c.json(errorBody("E_AUTH", "this media link is not valid"), 403);
    }
    let opened: Awaited<ReturnType<MediaStore["open"]>>;
    try {
      opened = await media.store.open(mediaId);
    } catch (error) {
      if (isChorusError(error) && error.code === "E_MESSAGE_NOT_FOUND") {
        return c.json(errorBody("E_MESSAGE_NOT_FOUND", "no such medium (never stored, or past its retention)"), 404);
      }
      throw error;
    }
    const { medium, stream } = opened;
    return new Response(stream, {
      status: 200,
      headers: {
        "content-type": medium.mime,
        "content-length": String(medium.size),
        "content-disposition": contentDisposition(medium),
        "x-content-type-options": "nosniff",
        // A stored HTML or SVG must never run as the gateway's origin, where the webchat lives.
        "content-security-policy": "sandbox",
        "cache-control": "private, no-store",
      },
    });
  });
}

/** `inline` for pictures, audio and video (never SVG), else `attachment`; the name escaped both ways. */
export function contentDisposition(medium: Pick<StoredMedium, "mime" | "filename">): string {
  const inline = /^(image|audio|video)\//.test(medium.mime) && !medium.mime.includes("svg");
  const ascii = medium.filename.replace(/[^\x20-\x7e]|["\\%;]/g, "_");
  const encoded = encodeURIComponent(medium.filename).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${inline ? "inline" : "attachment"}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** The file name of a `Content-Disposition` header (`filename*=UTF-8''…` first), if it has one. */
function filenameOfDisposition(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended.trim());
    } catch {
      // a malformed escape: fall back to the plain name
    }
  }
  return /filename\s*=\s*"([^"]*)"/i.exec(header)?.[1] ?? /filename\s*=\s*([^;\s]+)/i.exec(header)?.[1];
}

function errorBody(code: ChorusError["code"], message: string) {
  return { ok: false, error: { code, message } };
}
