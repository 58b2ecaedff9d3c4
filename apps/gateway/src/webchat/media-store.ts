import { randomBytes } from "node:crypto";
import { ChorusError } from "@chorus/core";
import type { MediaStore, StoredMedium } from "../media/index.js";

/** A webchat medium's id (an upload's, then its message's): `wm_` and 22 URL-safe characters (128 random bits). */
export const MEDIUM_ID = /^wm_[A-Za-z0-9_-]{22}$/u;

/** A new medium id. */
export function newMediumId(): string {
  return `wm_${randomBytes(16).toString("base64url")}`;
}

/** What the webchat uses of the gateway's media store (DESIGN §2.6): `DbMediaStore` is one. */
export type WebchatMediaStore = Pick<MediaStore, "put" | "get" | "open"> & {
  remove(mediaId: string): Promise<void>;
};

/**
 * The webchat's media in the gateway's media store (files beside SQLite, chunks in PostgreSQL, so
 * every gateway of a cluster serves them), by their store id (`mediaId`): streamed in and out, never
 * whole; counts the bytes it reads out.
 */
export class WebchatMedia {
  #bytesRead = 0;

  constructor(readonly store: WebchatMediaStore) {}

  /** Bytes read out of the store so far (downloads and the page's requests). */
  get bytesRead(): number {
    return this.#bytesRead;
  }

  /**
   * Streams `source` into the store; past `maxBytes` it stops with `E_TOO_LARGE` (naming `filename`)
   * and keeps nothing.
   */
  put(
    source: ReadableStream<Uint8Array>,
    options: { maxBytes: number; filename: string; signal?: AbortSignal | undefined },
  ): Promise<StoredMedium> {
    return this.store.put(source, options);
  }

  /** The size of a medium the store keeps, or undefined when it keeps none by that id (never stored, or pruned). */
  async size(mediaId: string): Promise<number | undefined> {
    return (await this.store.get(mediaId))?.size;
  }

  /**
   * The medium's bytes from `start` to `end` (inclusive; default: all), read as the consumer reads;
   * `E_MESSAGE_NOT_FOUND` when the store no longer keeps it. `signal` cancels the reading.
   */
  async open(
    mediaId: string,
    range: { start?: number; end?: number } = {},
    signal?: AbortSignal,
  ): Promise<ReadableStream<Uint8Array>> {
    const start = range.start ?? 0;
    const end = range.end ?? Number.POSITIVE_INFINITY;
    // Read from `start` on: a player seeking in a video reads nothing before it.
    const { stream } = await this.store.open(mediaId, start);
    const reader = stream.getReader();
    let at = start;
    const stop = () => void reader.cancel(signal?.reason).catch(() => undefined);
    signal?.addEventListener("abort", stop, { once: true });
    return new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          if (at > end) {
            signal?.removeEventListener("abort", stop);
            await reader.cancel().catch(() => undefined);
            return controller.close();
          }
          const { done, value } = await reader.read().catch((error: unknown) => {
            throw signal?.aborted ? signal.reason : error;
          });
          if (done) {
            signal?.removeEventListener("abort", stop);
            return controller.close();
          }
          this.#bytesRead += value.byteLength;
          // The store's stream starts at `start`: only the end of the range cuts a piece.
          const to = Math.min(value.byteLength, end - at + 1);
          at += value.byteLength;
          controller.enqueue(to === value.byteLength ? value : value.subarray(0, to));
        },
        cancel: (reason) => reader.cancel(reason),
      },
      { highWaterMark: 0 },
    );
  }

  /** Deletes a medium (unless a pending reply of the gateway sends it). */
  remove(mediaId: string): Promise<void> {
    return this.store.remove(mediaId);
  }
}

/** `E_MESSAGE_NOT_FOUND` for a webchat medium the store no longer keeps. */
export function noLongerKept(what: string): ChorusError {
  return new ChorusError("E_MESSAGE_NOT_FOUND", `${what} is no longer kept`, {
    hint: "Its message left the room's history, or it is older than the gateway keeps media (`media.retention`).",
  });
}
