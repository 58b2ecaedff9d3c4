import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import type { FakeResponse } from "@chorus/testkit";

const MB = 1024 * 1024;

/** The sizes Telegram's Bot API enforces, all configurable on the fake so a test proves them with small files. */
export interface FakeLimits {
  /** One multipart request (`413 Request Entity Too Large` above it): 50 MB. */
  uploadBytes: number;
  /** A photo `sendPhoto` takes (`Bad Request: PHOTO_SAVE_FILE_INVALID` above it): 10 MB. */
  photoBytes: number;
  /** A file `getFile` hands a bot (`Bad Request: file is too big` above it): 20 MB. */
  downloadBytes: number;
}

/** Telegram's own limits (Bot API, "Sending files", sendPhoto, getFile). */
export const TELEGRAM_LIMITS: FakeLimits = { uploadBytes: 50 * MB, photoBytes: 10 * MB, downloadBytes: 20 * MB };

/** What a file is, for its ids and path (Telegram's `file_id` prefixes and `file_path` folders). */
export type FakeFileType = "photo" | "video" | "animation" | "video_note" | "audio" | "voice" | "document" | "sticker";

const FOLDER: Record<FakeFileType, { folder: string; prefix: string; ext: string }> = {
  photo: { folder: "photos", prefix: "AgACAgIAAxkBAAI", ext: "jpg" },
  video: { folder: "videos", prefix: "BAACAgIAAxkBAAI", ext: "mp4" },
  animation: { folder: "animations", prefix: "CgACAgIAAxkBAAI", ext: "mp4" },
  video_note: { folder: "video_notes", prefix: "DQACAgIAAxkBAAI", ext: "mp4" },
  audio: { folder: "music", prefix: "CQACAgIAAxkBAAI", ext: "mp3" },
  voice: { folder: "voice", prefix: "AwACAgIAAxkBAAI", ext: "oga" },
  document: { folder: "documents", prefix: "BQACAgIAAxkBAAI", ext: "dat" },
  sticker: { folder: "stickers", prefix: "CAACAgIAAxkBAAI", ext: "webp" },
};

/** One file the fake holds: what it was uploaded (or sent) as. */
export interface FakeFile {
  readonly fileId: string;
  readonly fileUniqueId: string;
  /** Its bytes; of a generated file only the first ones (the rest is made as it is served). */
  readonly bytes: Uint8Array;
  /** Its real size. */
  readonly size: number;
  /** `length` bytes from `at`. */
  chunk(at: number, length: number): Uint8Array;
  readonly mime: string;
  readonly filename: string | undefined;
  /** `file_path` of `getFile`: `<folder>/file_<n>.<ext>`. */
  readonly path: string;
  /** What `file_size` says; a test may make it lie (`declare`). */
  declaredSize: number;
  /** Served without `Content-Length`, the way a server that does not know the size streams it. */
  unsized: boolean;
}

/**
 * The fake's file storage: every medium a person or the bot sent, by `file_id` and by `file_path`,
 * served on `/file/bot<token>/<file_path>` the way the Bot API's file endpoint does (the bytes with
 * their Content-Type and Content-Length), streamed in chunks so a client that stops reading stops
 * the transfer; `bytesServed` counts what went out.
 */
export class FakeFiles {
  readonly #byId = new Map<string, FakeFile>();
  readonly #byPath = new Map<string, FakeFile>();
  #next = 0;
  /** Bytes written to file downloads so far. */
  bytesServed = 0;

  constructor(readonly limits: FakeLimits) {}

  /** Stores `bytes` as a new file of `type`. */
  add(type: FakeFileType, bytes: Uint8Array, mime: string, filename?: string): FakeFile {
    return this.#add(type, bytes, bytes.byteLength, (at, length) => bytes.subarray(at, at + length), mime, filename);
  }

  /**
   * A file of `size` bytes that starts with `head` and goes on with a pattern made as it is served:
   * a large download to stop early, without holding it in memory.
   */
  addGenerated(type: FakeFileType, size: number, head: Uint8Array, mime: string, filename?: string): FakeFile {
    const chunk = (at: number, length: number) => {
      const out = new Uint8Array(Math.max(0, Math.min(length, size - at)));
      for (let i = 0; i < out.byteLength; i++)
        out[i] = at + i < head.byteLength ? (head[at + i] as number) : (at + i) % 251;
      return out;
    };
    return this.#add(type, head.subarray(0, size), size, chunk, mime, filename);
  }

  #add(
    type: FakeFileType,
    bytes: Uint8Array,
    size: number,
    chunk: FakeFile["chunk"],
    mime: string,
    filename: string | undefined,
  ): FakeFile {
    const n = this.#next++;
    const { folder, prefix, ext } = FOLDER[type];
    const extension = (filename && /\.([A-Za-z0-9]{1,8})$/.exec(filename)?.[1]) || ext;
    const file: FakeFile = {
      fileId: `${prefix}${randomId(52)}`,
      fileUniqueId: `AgAD${randomId(12)}`,
      bytes,
      size,
      chunk,
      mime,
      filename,
      path: `${folder}/file_${n}.${type === "photo" ? "jpg" : extension}`,
      declaredSize: size,
      unsized: false,
    };
    this.#byId.set(file.fileId, file);
    this.#byPath.set(file.path, file);
    return file;
  }

  byId(fileId: string): FakeFile | undefined {
    return this.#byId.get(fileId);
  }

  byPath(path: string): FakeFile | undefined {
    return this.#byPath.get(path);
  }

  /** Makes `file_size` (in messages and `getFile`) say `size`, and serves the file without a length: a server that lies. */
  declare(fileId: string, size: number): void {
    const file = this.#byId.get(fileId);
    if (!file) throw new Error(`fake Telegram: no file ${fileId}`);
    file.declaredSize = size;
    file.unsized = true;
  }

  /** The common fields of a file object in a message (`file_id`, `file_unique_id`, `file_size`). */
  fields(file: FakeFile): { file_id: string; file_unique_id: string; file_size: number } {
    return { file_id: file.fileId, file_unique_id: file.fileUniqueId, file_size: file.declaredSize };
  }

  /** The download of `file`, in 16 KB chunks with back-pressure, stopped when the client goes away. */
  serve(file: FakeFile): FakeResponse {
    return {
      status: 200,
      headers: {
        "content-type": file.mime,
        ...(file.unsized ? {} : { "content-length": String(file.size) }),
      },
      stream: (res) => void this.#write(res, file),
    };
  }

  async #write(res: ServerResponse, file: FakeFile): Promise<void> {
    const CHUNK = 16 * 1024;
    let gone = false;
    res.on("close", () => {
      gone = true;
    });
    for (let at = 0; at < file.size && !gone; at += CHUNK) {
      const chunk = file.chunk(at, CHUNK);
      this.bytesServed += chunk.byteLength;
      if (!res.write(chunk)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            res.off("drain", done);
            res.off("close", done);
            resolve();
          };
          res.on("drain", done);
          res.on("close", done);
        });
      }
    }
    if (!gone) res.end();
  }
}

function randomId(length: number): string {
  return randomBytes(length).toString("base64url").slice(0, length);
}
