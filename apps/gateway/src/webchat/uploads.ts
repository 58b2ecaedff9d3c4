import { ChorusError, formatBytes, isChorusError, type UploadKind } from "@chorus/core";
import { cleanFilename, cleanMime, kindOfMime, MAX_MEDIUM_BYTES, mediumTooLarge } from "./media-kinds.js";
import { newMediumId, type WebchatMedia } from "./media-store.js";
import type { UploadStaging } from "./staging.js";
import type { WebchatMedium } from "./types.js";

/** What the page says of a file before it sends the bytes. */
export interface UploadRequest {
  readonly filename: string;
  readonly mime?: string | undefined;
  /** Bytes it will send. */
  readonly size: number;
  /** What it is, where the page knows better than the MIME type (a voice note, a sticker). */
  readonly kind?: UploadKind | undefined;
  readonly width?: number | undefined;
  readonly height?: number | undefined;
}

/** Limits of the uploads waiting for their message. */
export interface UploadsOptions {
  /** Bytes of one upload at most; default 25 MiB. */
  maxBytes?: number;
  /** Uploads under way or waiting to be sent at once, at most; default 50. */
  maxPending?: number;
  /** How long an upload nobody touched is kept before it is dropped; default an hour. */
  ttlMs?: number;
  now?: () => number;
}

interface Pending {
  /** With its `mediaId` once complete (in the store). */
  medium: WebchatMedium;
  received: number;
  busy: boolean;
  touched: number;
}

/**
 * Files people upload from the page, piece by piece, before the message that carries them: each is
 * announced with its size (over the limit it is refused before a byte is sent), its pieces are
 * staged on this gateway's disk in order, and once complete it is streamed into the media store as
 * one medium (its `mediaId`), which a message then takes (`claim`, by the upload's id, which stays
 * the medium's id on the page). Uploads nobody sent are dropped after an hour; a restart drops
 * those under way (`UploadStaging.ready`) and leaves finished ones to the store's retention.
 */
export class Uploads {
  readonly #pending = new Map<string, Pending>();
  readonly #now: () => number;
  readonly maxBytes: number;
  readonly #maxPending: number;
  readonly #ttlMs: number;

  constructor(
    readonly staging: UploadStaging,
    readonly media: WebchatMedia,
    options: UploadsOptions = {},
  ) {
    this.maxBytes = options.maxBytes ?? MAX_MEDIUM_BYTES;
    this.#maxPending = options.maxPending ?? 50;
    this.#ttlMs = options.ttlMs ?? 3_600_000;
    this.#now = options.now ?? Date.now;
  }

  /** Starts an upload; `E_TOO_LARGE` naming the file and the limit when it is over it. */
  async begin(request: UploadRequest): Promise<{ medium: WebchatMedium; complete: boolean }> {
    const filename = cleanFilename(request.filename, "file");
    const { size } = request;
    if (!Number.isSafeInteger(size) || size < 0) {
      throw new ChorusError("E_INVALID_INPUT", `the size of "${filename}" must be a whole number of bytes`);
    }
    if (size > this.maxBytes) throw mediumTooLarge(filename, size, this.maxBytes);
    await this.expire();
    if (this.#pending.size >= this.#maxPending) {
      throw new ChorusError("E_INVALID_INPUT", `${this.#pending.size} uploads are waiting to be sent already`, {
        hint: "Send or remove some of them first.",
      });
    }
    const mime = cleanMime(request.mime);
    const medium: WebchatMedium = {
      id: newMediumId(),
      kind: request.kind ?? kindOfMime(mime),
      mime,
      filename,
      size,
      ...(request.width !== undefined && request.height !== undefined
        ? { width: request.width, height: request.height }
        : {}),
    };
    const upload: Pending = { medium, received: 0, busy: false, touched: this.#now() };
    this.#pending.set(medium.id, upload);
    if (size === 0) {
      await this.#store(medium.id, upload).catch((error: unknown) => {
        this.#pending.delete(medium.id);
        throw error;
      });
    }
    return { medium, complete: size === 0 };
  }

  /**
   * Streams the piece of upload `id` that starts at `offset` to its staged file, and the whole into
   * the store with the last piece. Pieces come in order, one at a time; a piece past the size
   * announced fails with `E_TOO_LARGE` and drops the upload.
   */
  async append(
    id: string,
    offset: number,
    body: ReadableStream<Uint8Array>,
  ): Promise<{ received: number; complete: boolean }> {
    const upload = this.#pending.get(id);
    if (!upload) {
      throw new ChorusError("E_MESSAGE_NOT_FOUND", `no upload ${id.slice(0, 40)} is under way`, {
        hint: "It was sent already, dropped after an hour, or the gateway restarted: upload the file again.",
      });
    }
    const { medium } = upload;
    if (upload.received === medium.size) throw new ChorusError("E_INVALID_INPUT", `upload ${id} is complete already`);
    if (upload.busy) throw new ChorusError("E_INVALID_INPUT", `another piece of upload ${id} is still on its way`);
    if (offset !== upload.received) {
      throw new ChorusError("E_INVALID_INPUT", `upload ${id} has ${upload.received} bytes; send the piece from there`, {
        details: { received: upload.received },
      });
    }
    upload.busy = true;
    try {
      const left = medium.size - upload.received;
      upload.received += await this.staging.append(id, body, left, `"${medium.filename}"`);
      if (upload.received === medium.size) await this.#store(id, upload);
    } catch (error) {
      this.#pending.delete(id);
      await this.staging.remove(id);
      if (isChorusError(error) && error.code === "E_TOO_LARGE") {
        throw new ChorusError(
          "E_TOO_LARGE",
          `"${medium.filename}" has more than the ${formatBytes(medium.size)} announced; the upload was dropped.`,
        );
      }
      throw error;
    } finally {
      upload.busy = false;
      upload.touched = this.#now();
    }
    return { received: upload.received, complete: upload.received === medium.size };
  }

  /** Takes complete uploads for a message (each once); `E_INVALID_INPUT` naming one that is not. */
  claim(ids: readonly string[]): WebchatMedium[] {
    const unique = [...new Set(ids)];
    for (const id of unique) {
      const upload = this.#pending.get(id);
      if (!upload) {
        throw new ChorusError("E_INVALID_INPUT", `there is no finished upload ${id.slice(0, 40)}`, {
          hint: "It was sent already, dropped after an hour, or the gateway restarted: upload the file again.",
        });
      }
      if (upload.busy || upload.received < upload.medium.size) {
        throw new ChorusError("E_INVALID_INPUT", `"${upload.medium.filename}" is still uploading`, {
          hint: "Send the message once its uploads are complete.",
        });
      }
    }
    return unique.map((id) => {
      const { medium } = this.#pending.get(id) as Pending;
      this.#pending.delete(id);
      return medium;
    });
  }

  /** Puts claimed uploads back (the message that took them could not be posted). */
  release(media: readonly WebchatMedium[]): void {
    for (const medium of media) {
      this.#pending.set(medium.id, { medium, received: medium.size, busy: false, touched: this.#now() });
    }
  }

  /** Whether `id` is an upload under way or waiting to be sent. */
  has(id: string): boolean {
    return this.#pending.has(id);
  }

  /** Drops the uploads nobody touched for the time to live (staged or stored). */
  async expire(): Promise<void> {
    const before = this.#now() - this.#ttlMs;
    const stale = [...this.#pending.values()].filter((upload) => !upload.busy && upload.touched < before);
    for (const { medium } of stale) this.#pending.delete(medium.id);
    await Promise.all(
      stale.map(({ medium }) =>
        medium.mediaId === undefined ? this.staging.remove(medium.id) : this.media.remove(medium.mediaId),
      ),
    );
  }

  /** Streams the complete upload from its staged file into the store: its medium gets its `mediaId`. */
  async #store(id: string, upload: Pending): Promise<void> {
    const stored = await this.media.put(this.staging.read(id), {
      maxBytes: upload.medium.size,
      filename: upload.medium.filename,
    });
    await this.staging.remove(id);
    upload.medium = { ...upload.medium, mediaId: stored.mediaId };
  }
}
