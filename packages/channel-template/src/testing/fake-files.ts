import { type FakeResponse, mediumResponse } from "@chorus/testkit";
import type { AcmeFile } from "../wire.js";

/** Acme's limit on one upload; a larger one answers 413 `file_too_large`. */
export const ACME_UPLOAD_LIMIT = 8 * 1024 * 1024;
/** The kinds a bot may upload: Acme shows voice notes, but only people record them. */
export const BOT_FILE_KINDS: readonly string[] = ["image", "video", "file"];

/** The fake Acme's files: every byte uploaded or sent by someone, and what downloads served. */
export class FakeAcmeFiles {
  readonly #files = new Map<string, { file: AcmeFile; bytes: Uint8Array }>();
  #next = 1;
  /** Bytes `GET /v1/files/:id` has written to clients so far. */
  bytesServed = 0;

  /** Stores `bytes`; the file's `url` is where Acme serves it (`<baseUrl>/v1/files/<id>`). */
  add(input: { kind: AcmeFile["kind"]; name: string; mimeType: string; bytes: Uint8Array }, baseUrl: string): AcmeFile {
    const id = `file_${this.#next++}`;
    const file: AcmeFile = {
      id,
      kind: input.kind,
      name: input.name,
      mime_type: input.mimeType,
      size: input.bytes.byteLength,
      url: `${baseUrl}/v1/files/${id}`,
    };
    this.#files.set(id, { file, bytes: input.bytes });
    return file;
  }

  /** A file's bytes as stored. */
  bytes(id: string): Uint8Array | undefined {
    return this.#files.get(id)?.bytes;
  }

  /** `GET /v1/files/:id`: the bytes as uploaded, streamed and counted; undefined for an unknown id. */
  serve(id: string): FakeResponse | undefined {
    const stored = this.#files.get(id);
    if (!stored) return undefined;
    return mediumResponse(stored.bytes, {
      headers: { "content-type": stored.file.mime_type ?? "application/octet-stream" },
      served: (bytes) => {
        this.bytesServed += bytes;
      },
    });
  }
}
