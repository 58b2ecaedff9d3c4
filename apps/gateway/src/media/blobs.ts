import type { Sql } from "../state/index.js";
import type { BlobFacts, IntakeOptions } from "./intake.js";

/** A leftover of a put (a temp file, temp chunks, bytes no medium names) younger than this may belong to a put still running. */
export const LEFTOVER_AFTER_MS = 60 * 60 * 1000;

/** What records a medium once its bytes are in: called with the facts, it returns the work of the commit. */
export type RecordBlob = (facts: BlobFacts) => Promise<(sql: Sql) => Promise<void>>;

/**
 * Where a medium's bytes live, once per sha256 (DESIGN §2.6): files (SQLite) or table chunks
 * (PostgreSQL). Both stream in and out without holding a medium whole.
 */
export interface Blobs {
  /**
   * Streams `stream` in; once it ended within the cap, `record`'s work runs in the transaction that
   * makes the bytes visible — all of it happens, or none (a failed put leaves nothing behind).
   */
  put(stream: ReadableStream<Uint8Array>, options: IntakeOptions, record: RecordBlob): Promise<BlobFacts>;
  /**
   * The bytes from `from` (default 0) on, read piece by piece as the stream is read;
   * `E_MESSAGE_NOT_FOUND` (as an error of the stream) when they are gone.
   */
  open(sha256: string, size: number, from?: number): ReadableStream<Uint8Array>;
  /** Deletes the bytes when no medium refers to them any more. */
  release(sha256: string): Promise<void>;
  /** Removes what interrupted puts left (a crash); resolves with how many. */
  sweep(now: number): Promise<number>;
}

/** Whether a medium row still refers to the bytes of `sha256`. */
export async function referenced(sql: Sql, sha256: string): Promise<boolean> {
  return (await sql.one("SELECT 1 AS one FROM media WHERE sha256 = $1 LIMIT 1", [sha256])) !== undefined;
}
