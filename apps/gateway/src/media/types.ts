import type { AttachmentKind } from "@chorus/core";

/** A medium in the gateway's store (DESIGN §2.6): its id, and what its bytes are. */
export interface StoredMedium {
  /** `med_…`: what the agent, the outbox and `/v1/media/<id>` name it by. */
  readonly mediaId: string;
  /** Hex sha256 of the bytes: the store keeps each content once. */
  readonly sha256: string;
  readonly size: number;
  /** Sniffed from the bytes (`application/octet-stream` when nothing matched). */
  readonly mime: string;
  /** Sniffed from the bytes (`file` when not an image, video or audio). */
  readonly kind: AttachmentKind;
  /** The name people see: given, or from the source, or made from kind and type (`image.png`). */
  readonly filename: string;
  /** Epoch ms. */
  readonly createdAt: number;
}

/** What a caller knows of a medium it puts in the store. */
export interface PutMediumOptions {
  /** Stop with `E_TOO_LARGE` past this many bytes, storing nothing. */
  readonly maxBytes: number;
  readonly filename?: string | undefined;
  readonly signal?: AbortSignal | undefined;
}

/**
 * The gateway's media store: content-addressed, streamed in and out (a large file never sits whole
 * in memory), on the state backend — files under `<home>/media/` with SQLite, a table with
 * PostgreSQL so every gateway of a cluster serves every medium.
 */
export interface MediaStore {
  /** Streams `bytes` into the store; the medium is readable by its id once this resolved. */
  put(bytes: ReadableStream<Uint8Array>, options: PutMediumOptions): Promise<StoredMedium>;
  /** The medium, or undefined when there is none by that id (never stored, or past retention). */
  get(mediaId: string): Promise<StoredMedium | undefined>;
  /**
   * Its bytes as a stream, from byte `from` (default 0) to the end, read from there (a player
   * seeking in a video reads nothing before it); `E_MESSAGE_NOT_FOUND` when there is no such medium.
   */
  open(mediaId: string, from?: number): Promise<{ medium: StoredMedium; stream: ReadableStream<Uint8Array> }>;
  /** Deletes media older than the retention that nothing pending refers to; returns how many. */
  prune(now?: number): Promise<number>;
  /** Deletes one medium at once unless a pending reply sends it (a send refused after its items were stored). */
  remove?(mediaId: string): Promise<void>;
}
