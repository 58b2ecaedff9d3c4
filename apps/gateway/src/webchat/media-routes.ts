import { collectBytes } from "@chorus/channel-kit";
import { type ChannelContext, ChorusError, type ErrorCode, isChorusError, type Logger, z } from "@chorus/core";
import { showsInline, UPLOAD_KINDS } from "./media-kinds.js";
import { MEDIA_PATH, UPLOAD_PATH } from "./media-paths.js";
import type { WebchatMedia } from "./media-store.js";
import type { WebchatSite } from "./site.js";
import type { WebchatMedium } from "./types.js";
import type { Uploads } from "./uploads.js";

/**
 * Bytes of one upload piece the page sends: well under the gateway's body limit
 * (`gateway.maxBodyBytes`, 1 MiB by default), which every route under `/hooks` is held to. A page
 * told 413 by that limit halves its pieces.
 */
export const PIECE_BYTES = 256 * 1024;

const uploadRequest = z
  .object({
    filename: z.string().min(1, "filename is empty").max(1000),
    mime: z.string().max(255).optional(),
    size: z.number().int().min(0),
    kind: z.enum(UPLOAD_KINDS as [string, ...string[]]).optional(),
    width: z.number().int().min(1).max(100_000).optional(),
    height: z.number().int().min(1).max(100_000).optional(),
  })
  .strict();

/** What the webchat's routes serve from: the site (its token), the uploads, the media store and the kept messages' media. */
export interface MediaRoutesOptions {
  site: WebchatSite;
  uploads: Uploads;
  media: WebchatMedia;
  /** A medium of a message the running hub keeps, by id. */
  medium(id: string): WebchatMedium | undefined;
  logger: Logger;
}

/**
 * The webchat's HTTP routes, each taking the token the socket takes (`Authorization: Bearer`, or
 * `?token=` where the page cannot set a header: an `<img>`): `POST /upload` announces a file,
 * `PUT /upload?id=&offset=` streams a piece of it (the last one puts it in the media store),
 * `GET /media?id=` serves a medium of a kept message from the store (so any gateway of a cluster
 * does) and never as the gateway's page (`nosniff`, a sandbox CSP, inline only for pictures, audio
 * and video).
 */
export function registerMediaRoutes(http: ChannelContext<unknown>["http"], options: MediaRoutesOptions): void {
  const { site, uploads, media } = options;
  const guarded =
    (handle: (request: Request, url: URL) => Promise<Response>) =>
    async (request: Request): Promise<Response> => {
      const url = new URL(request.url);
      if (!site.admits(tokenOf(request, url))) {
        return failure(
          "E_AUTH",
          "missing or wrong token: open the webchat with the link `chorus token --webchat` prints",
        );
      }
      try {
        return await handle(request, url);
      } catch (error) {
        await request.body?.cancel().catch(() => undefined);
        if (isChorusError(error)) return failure(error.code, error.message, error.hint, error.details);
        options.logger.warn({ err: error, path: url.pathname }, "webchat media route failed");
        return failure("E_PLATFORM", "the webchat could not handle this request");
      }
    };

  http.route(
    "POST",
    UPLOAD_PATH,
    guarded(async (request) => {
      const body = await collectBytes(request.body ?? emptyBody(), 8192, "the upload's description");
      const parsed = uploadRequest.safeParse(parseJson(body, options.logger));
      if (!parsed.success) {
        const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`);
        options.logger.warn({ problems }, "webchat: refused an upload description it cannot read");
        throw new ChorusError("E_INVALID_INPUT", `invalid upload: ${problems.join("; ")}`);
      }
      const { kind, ...rest } = parsed.data;
      const { medium, complete } = await uploads.begin({
        ...rest,
        ...(kind !== undefined ? { kind: kind as WebchatMedium["kind"] } : {}),
      });
      const answer = { ok: true, id: medium.id, kind: medium.kind, complete, pieceBytes: PIECE_BYTES };
      return Response.json({ ...answer, maxBytes: uploads.maxBytes }, { status: 201 });
    }),
  );

  http.route(
    "PUT",
    UPLOAD_PATH,
    guarded(async (request, url) => {
      const id = url.searchParams.get("id") ?? "";
      const offset = Number(url.searchParams.get("offset") ?? Number.NaN);
      if (!Number.isSafeInteger(offset) || offset < 0) {
        throw new ChorusError("E_INVALID_INPUT", "offset must be the number of bytes of the upload sent so far");
      }
      const { received, complete } = await uploads.append(id, offset, request.body ?? emptyBody());
      return Response.json({ ok: true, received, complete });
    }),
  );

  http.route(
    "GET",
    MEDIA_PATH,
    guarded(async (request, url) => {
      const id = url.searchParams.get("id") ?? "";
      const medium = options.medium(id);
      const mediaId = medium?.mediaId;
      const size = mediaId === undefined ? undefined : await media.size(mediaId);
      if (!medium || mediaId === undefined || size === undefined) {
        return failure(
          "E_MESSAGE_NOT_FOUND",
          "no such medium: never sent here, or no longer kept (its message left the history, or it is older than the gateway keeps media)",
        );
      }
      const range = rangeOf(request.headers.get("range"), size);
      if (range === "unsatisfiable") {
        return new Response(null, { status: 416, headers: { "content-range": `bytes */${size}` } });
      }
      const { start, end } = range ?? { start: 0, end: size - 1 };
      const headers = new Headers({
        "content-type": medium.mime,
        "content-length": String(Math.max(0, end - start + 1)),
        "content-disposition": contentDisposition(medium),
        "x-content-type-options": "nosniff",
        // An uploaded HTML or SVG must never run as the gateway's origin, where the webchat page lives.
        "content-security-policy": "sandbox",
        "cache-control": "private, max-age=86400, immutable",
        "accept-ranges": "bytes",
      });
      if (range) headers.set("content-range", `bytes ${start}-${end}/${size}`);
      const body = size === 0 ? null : await media.open(mediaId, { start, end }, request.signal);
      return new Response(body, { status: range ? 206 : 200, headers });
    }),
  );
}

function tokenOf(request: Request, url: URL): string | null {
  const header = request.headers.get("authorization");
  const bearer = header ? /^Bearer\s+(\S+)$/iu.exec(header.trim())?.[1] : undefined;
  return bearer ?? url.searchParams.get("token");
}

/** One `bytes=a-b` range within `size`: undefined for none (or one it does not serve), or unsatisfiable. */
function rangeOf(header: string | null, size: number): { start: number; end: number } | "unsatisfiable" | undefined {
  const match = header ? /^bytes=(\d*)-(\d*)$/u.exec(header.trim()) : null;
  if (!match || (match[1] === "" && match[2] === "")) return undefined;
  const [first, last] = [match[1] as string, match[2] as string];
  const start = first === "" ? Math.max(0, size - Number(last)) : Number(first);
  const end = first === "" || last === "" ? size - 1 : Math.min(Number(last), size - 1);
  return start > end || start >= size ? "unsatisfiable" : { start, end };
}

/** `inline` for pictures, audio and video (never SVG), else `attachment`; the name escaped both ways. */
export function contentDisposition(medium: Pick<WebchatMedium, "mime" | "filename">): string {
  const ascii = medium.filename.replace(/[^\x20-\x7e]|["\\%;]/gu, "_");
  const encoded = encodeURIComponent(medium.filename).replace(
    /['()*]/gu,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${showsInline(medium.mime) ? "inline" : "attachment"}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

const STATUS: Partial<Record<ErrorCode, number>> = {
  E_AUTH: 401,
  E_TOO_LARGE: 413,
  E_MESSAGE_NOT_FOUND: 404,
  E_INVALID_INPUT: 400,
};

function failure(code: ErrorCode, message: string, hint?: string, details?: unknown): Response {
  const error = {
    code,
    message,
    ...(hint !== undefined ? { hint } : {}),
    ...(details !== undefined ? { details } : {}),
  };
  return Response.json({ ok: false, error }, { status: STATUS[code] ?? 500 });
}

function parseJson(bytes: Uint8Array, logger: Logger): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch (error) {
    logger.warn({ err: (error as Error).message }, "webchat: refused an upload description that is not JSON");
    throw new ChorusError("E_INVALID_INPUT", "the upload's description must be JSON");
  }
}

function emptyBody(): ReadableStream<Uint8Array> {
  return new ReadableStream({ start: (controller) => controller.close() });
}
