import { createHash, randomBytes } from "node:crypto";
import { type FakeServer, mediumResponse } from "@chorus/testkit";

/** A file Zalo stored: its bytes, and the URL its CDN serves them at. */
export interface StoredFile {
  bytes: Uint8Array;
  filename: string;
  mime: string;
  url: string;
}

/** A sticker of Zalo's catalogue, with the image its detail names. */
export interface StoredSticker extends StoredFile {
  id: number;
  catId: number;
  type: number;
}

/** The CDN hosts the fake's media URLs name (Zalo's own, see `DEFAULT_MEDIA_HOSTS`; `apiBase` sends them here). */
const PHOTO_HOST = "https://photo-stal-9.zdn.vn";
const FILE_HOST = "https://file-stal-9.dlfl.vn";
const STICKER_HOST = "https://zalo-api.zadn.vn";

/** MD5 of the bytes in hex: the `checksum` zca-js sends with a file (SparkMD5 over the whole file). */
export const md5 = (bytes: Uint8Array): string => createHash("md5").update(bytes).digest("hex");

/**
 * What the fake's CDN holds: photos on `photo-stal-9.zdn.vn/p/…`, files and voice messages on
 * `file-stal-9.dlfl.vn/f/…`, sticker images on `zalo-api.zadn.vn/api/emoticon/sticker/webpc?eid=…`.
 * Every download is answered as a file server does it (`content-length`, `content-type`, written in
 * chunks as the client reads), `HEAD` included (zca-js's `sendVoice` asks a voice file's size so).
 * No cookie is needed: these are not the protocol's hosts.
 */
export class FakeMediaStore {
  /** Files by path (and query) on the CDN. */
  readonly #byPath = new Map<string, StoredFile>();
  readonly stickers = new Map<number, StoredSticker>();
  /** Bytes served by downloads so far (not by `HEAD`). */
  bytesServed = 0;
  #nextSticker = 50_001;
  readonly #routed = new Set<string>();

  constructor(private readonly server: FakeServer) {
    for (const path of ["/p/:token/:name", "/f/:token/:name", "/api/emoticon/sticker/webpc"]) this.#route(path);
  }

  /** Answers `GET` and `HEAD` on `path` from what the CDN holds. */
  #route(path: string): void {
    if (this.#routed.has(path)) return;
    this.#routed.add(path);
    const serve = (head: boolean) => (ctx: { path: string; query: URLSearchParams }) => {
      const eid = ctx.query.get("eid");
      const file = this.#byPath.get(eid === null ? ctx.path : `${ctx.path}?eid=${eid}`);
      if (!file) return { status: 404, body: "Not Found" };
      const headers = { "content-type": file.mime };
      if (head) return { status: 200, headers: { ...headers, "content-length": file.bytes.byteLength } };
      const served = (bytes: number) => {
        this.bytesServed += bytes;
      };
      return mediumResponse(file.bytes, { headers, served });
    };
    this.server.route("GET", path, serve(false));
    this.server.route("HEAD", path, serve(true));
  }

  /** Stores a photo (`photo`) or any other file on the CDN; returns it with its URL. */
  store(where: "photo" | "file", bytes: Uint8Array, filename: string, mime: string): StoredFile {
    const path = `/${where === "photo" ? "p" : "f"}/${randomBytes(8).toString("hex")}/${encodeURIComponent(filename)}`;
    const file = { bytes, filename, mime, url: `${where === "photo" ? PHOTO_HOST : FILE_HOST}${path}` };
    this.#byPath.set(path, file);
    return file;
  }

  /** Serves `bytes` at `url` (a fixture's URL on a Zalo media host). */
  serve(url: string, bytes: Uint8Array, mime: string): StoredFile {
    const { pathname, search } = new URL(url);
    const file = { bytes, filename: decodeURIComponent(pathname.split("/").at(-1) ?? ""), mime, url };
    this.#byPath.set(pathname + search, file);
    this.#route(pathname);
    return file;
  }

  /** Adds a sticker to Zalo's catalogue, its image `bytes`. */
  addSticker(bytes: Uint8Array, mime = "image/webp"): StoredSticker {
    const id = this.#nextSticker++;
    const path = `/api/emoticon/sticker/webpc?eid=${id}`;
    const sticker = {
      id,
      catId: 10_751,
      type: 7,
      bytes,
      filename: `sticker-${id}.webp`,
      mime,
      url: STICKER_HOST + path,
    };
    this.#byPath.set(path, sticker);
    this.stickers.set(id, sticker);
    return sticker;
  }

  /** The file Zalo serves at `url`, if it is one of the CDN's. */
  at(url: string): StoredFile | undefined {
    try {
      const { pathname, search } = new URL(url);
      return this.#byPath.get(pathname + search);
    } catch {
      return undefined;
    }
  }
}
