import type { FakeServer, RequestContext } from "@chorus/testkit";
import type { FakeMediaStore, StoredFile } from "./media-store.js";
import type { FakeSession } from "./state.js";
import { answer, INVALID, type Params, type RouteOptions, refuse, zaloRoute } from "./zalo-route.js";

const MB = 1024 * 1024;

/** `settings.features.sharefile` of the fake's `getServerInfo`: the limits zca-js and the fake apply. */
export interface FakeShareFile {
  /** MB of one file (zca-js refuses more itself). */
  max_size_share_file_v3: number;
  /** MB of one photo through the photo upload (the fake refuses more; zca-js does not check it). */
  max_size_original_photo: number;
  /** Bytes of one upload chunk zca-js sends. */
  chunk_size_file: number;
  /** Files in one `uploadAttachment`. */
  max_file: number;
  /** Extensions Zalo refuses (zca-js checks them). */
  restricted_ext_file: string[];
}

/**
 * The limits of Zalo Web's `settings.features.sharefile` as the fake hands them out: files of up to
 * 1024 MB, photos up to 10 MB, chunks of 2 MiB, 50 files at once, no extension refused.
 */
export const DEFAULT_SHAREFILE: FakeShareFile = {
  max_size_share_file_v3: 1024,
  max_size_original_photo: 10,
  chunk_size_file: 2_097_152,
  max_file: 50,
  restricted_ext_file: [],
};

/** What the upload routes share with the rest of the fake. */
export interface UploadRoutesOptions extends RouteOptions {
  media: FakeMediaStore;
  sharefile(): FakeShareFile;
  /** Zalo's listener tells the uploader a file is stored (cmd 601 `file_done`) a moment after the last chunk. */
  fileDone(fileId: string, url: string): void;
}

/** An upload whose chunks are arriving. */
interface Upload {
  chunks: Map<number, Uint8Array>;
  totalChunk: number;
  totalSize: number;
  fileName: string;
}

/** What Zalo made of a finished upload: a photo (by `photoId`) or a file (by `fileId`). */
export interface Uploads {
  readonly photos: Map<string, StoredFile>;
  readonly files: Map<string, StoredFile>;
}

const extensionOf = (name: string) => (name.includes(".") ? (name.split(".").pop() ?? "").toLowerCase() : "");

/** The MIME type Zalo's CDN answers for a file it stored, by its extension (what a file server does). */
export function mimeOf(name: string): string {
  const types: Record<string, string> = {
    jpg: "image/jpeg",
    jpeg: "image/jpeg",
    png: "image/png",
    webp: "image/webp",
    gif: "image/gif",
    mp4: "video/mp4",
    mp3: "audio/mpeg",
    m4a: "audio/mp4",
    aac: "audio/aac",
    ogg: "audio/ogg",
    pdf: "application/pdf",
    txt: "text/plain",
  };
  return types[extensionOf(name)] ?? "application/octet-stream";
}

/** The one chunk (`chunkContent`) of a multipart upload body. */
async function chunkOf(ctx: RequestContext): Promise<Uint8Array | undefined> {
  const type = ctx.headers["content-type"];
  if (!type?.startsWith("multipart/form-data")) return undefined;
  const form = await new Response(ctx.rawBody, { headers: { "content-type": type } }).formData();
  const chunk = form.get("chunkContent");
  return typeof chunk === "object" && chunk !== null ? new Uint8Array(await chunk.arrayBuffer()) : undefined;
}

/**
 * zca-js's `uploadAttachment` against the file host, as it speaks it: each chunk a multipart
 * `chunkContent`, its params (`totalChunk`, `chunkId`, `fileName`, `totalSize`, `clientId`, `toid` or
 * `grid`) encrypted in the query with `type` 2 (person) or 11 (group); chunks may arrive in any order
 * (zca-js sends them all at once). A chunk that does not finish the file is answered with the id
 * `-1`, which zca-js reads as "not yet"; the last one with the id. A photo
 * (`photo_original/upload`) is answered with its URLs at once; any other file
 * (`asyncfile/upload`) with its `fileId` only, its URL following over the listener
 * (`file_done`), which zca-js waits for.
 */
export function addUploadRoutes(server: FakeServer, options: UploadRoutesOptions): Uploads {
  const { media, problem } = options;
  const uploads = new Map<string, Upload>();
  const done: Uploads = { photos: new Map(), files: new Map() };
  let nextId = 9_100_000_000;

  const receive = async (
    where: "photo" | "file",
    kind: "message" | "group",
    params: Params,
    session: FakeSession,
    ctx: RequestContext,
  ) => {
    const sharefile = options.sharefile();
    const thread = kind === "group" ? params.grid : params.toid;
    if (ctx.query.get("type") !== (kind === "group" ? "11" : "2") || thread === undefined) {
      problem(`${ctx.path}: type ${ctx.query.get("type")} or thread missing`);
      return refuse(INVALID, "Tham số không hợp lệ");
    }
    const fileName = String(params.fileName ?? "");
    const totalSize = Number(params.totalSize);
    const totalChunk = Number(params.totalChunk);
    const chunkId = Number(params.chunkId);
    const chunk = await chunkOf(ctx);
    if (!chunk || fileName === "" || !(totalSize > 0) || !(chunkId >= 1 && chunkId <= totalChunk)) {
      problem(`${ctx.path}: an upload chunk without its file or with wrong params`);
      return refuse(INVALID, "Tham số không hợp lệ");
    }
    const limitMb = where === "photo" ? sharefile.max_size_original_photo : sharefile.max_size_share_file_v3;
    if (totalSize > limitMb * MB) return refuse(INVALID, `File ${fileName} size exceed maximum size of ${limitMb}MB`);
    if (sharefile.restricted_ext_file.includes(extensionOf(fileName))) {
      return refuse(INVALID, `File extension "${extensionOf(fileName)}" is not allowed`);
    }
    const key = `${session.sek}:${where}:${String(params.clientId)}`;
    const upload = uploads.get(key) ?? { chunks: new Map(), totalChunk, totalSize, fileName };
    uploads.set(key, upload);
    upload.chunks.set(chunkId, chunk);
    const base = { finished: 0, clientFileId: Number(params.clientId), chunkId };
    if (upload.chunks.size < upload.totalChunk)
      return answer(session, { ...base, [where === "photo" ? "photoId" : "fileId"]: -1 });
    uploads.delete(key);
    const parts = [...upload.chunks.entries()].sort(([a], [b]) => a - b).map(([, bytes]) => bytes);
    const bytes = new Uint8Array(Buffer.concat(parts));
    if (
      bytes.byteLength !== upload.totalSize ||
      parts.some((p, i) => i < parts.length - 1 && p.byteLength !== sharefile.chunk_size_file)
    ) {
      problem(
        `${ctx.path}: ${fileName} arrived as ${bytes.byteLength} bytes in chunks other than ${sharefile.chunk_size_file}, not ${upload.totalSize}`,
      );
      return refuse(INVALID, "Tham số không hợp lệ");
    }
    const stored = media.store(where, bytes, fileName, mimeOf(fileName));
    const id = String(nextId++);
    if (where === "photo") {
      done.photos.set(id, stored);
      const urls = { normalUrl: stored.url, hdUrl: stored.url, thumbUrl: stored.url };
      return answer(session, { ...base, finished: 1, photoId: Number(id), ...urls });
    }
    done.files.set(id, stored);
    options.fileDone(id, stored.url);
    return answer(session, { ...base, finished: 1, fileId: Number(id) });
  };

  for (const kind of ["message", "group"] as const) {
    zaloRoute(server, options, "POST", `/api/${kind}/photo_original/upload`, (params, session, ctx) =>
      receive("photo", kind, params, session, ctx),
    );
    zaloRoute(server, options, "POST", `/api/${kind}/asyncfile/upload`, (params, session, ctx) =>
      receive("file", kind, params, session, ctx),
    );
  }
  return done;
}
