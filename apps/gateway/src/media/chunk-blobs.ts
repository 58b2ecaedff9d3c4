import { randomBytes } from "node:crypto";
import { ChorusError } from "@chorus/core";
import type { Sql, SqlDb } from "../state/index.js";
import { type Blobs, LEFTOVER_AFTER_MS, type RecordBlob, referenced } from "./blobs.js";
import { type BlobFacts, drain, type IntakeOptions, Rechunker } from "./intake.js";
import { mediaGarbage } from "./young-garbage.js";

/** Bytes of one `media_chunks` row at most. */
export const CHUNK_BYTES = 256 * 1024;

/** The transaction-scoped lock of one hash: a put that reuses bytes and a release that drops them never cross. */
async function lockHash(sql: Sql, sha256: string): Promise<void> {
  await sql.run("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [`media:${sha256}`]);
}

/**
 * Media bytes as rows of `media_chunks` (sha256, seq, ≤ 256 KiB), for PostgreSQL: every gateway of a
 * cluster reads them. A put writes its chunks as they stream in under a temporary key
 * (`tmp-<epoch ms>-<random>`), each insert on its own, so no pooled connection waits on a slow
 * upload; then one short transaction names them by their hash (or drops them when that hash is
 * stored already) and records the medium. A failed put deletes its chunks; what a crash left is
 * swept once it is old. Reading fetches one chunk per read of the stream.
 */
export class ChunkBlobs implements Blobs {
  constructor(private readonly db: SqlDb) {}

  async put(stream: ReadableStream<Uint8Array>, options: IntakeOptions, record: RecordBlob): Promise<BlobFacts> {
    const temp = `tmp-${Date.now()}-${randomBytes(9).toString("base64url")}`;
    const pieces = new Rechunker(CHUNK_BYTES);
    let seq = 0;
    const insert = async (piece: Uint8Array) => {
      await this.db.run("INSERT INTO media_chunks (sha256, seq, bytes) VALUES ($1, $2, $3)", [temp, seq++, piece]);
    };
    try {
      const facts = await drain(stream, options, (chunk) => pieces.push(chunk, insert));
      await pieces.end(insert);
      return await this.db.tx(async (sql) => {
        const work = await record(facts);
        await lockHash(sql, facts.sha256);
        const stored = await sql.one("SELECT 1 AS one FROM media_chunks WHERE sha256 = $1 LIMIT 1", [facts.sha256]);
        if (stored || facts.size === 0) await sql.run("DELETE FROM media_chunks WHERE sha256 = $1", [temp]);
        else await sql.run("UPDATE media_chunks SET sha256 = $1 WHERE sha256 = $2", [facts.sha256, temp]);
        await work(sql);
        return facts;
      });
    } catch (error) {
      // Best effort: what a failed delete leaves, the sweep removes.
      await this.db.run("DELETE FROM media_chunks WHERE sha256 = $1", [temp]).catch(() => undefined);
      throw error;
    }
  }

  open(sha256: string, size: number, from = 0): ReadableStream<Uint8Array> {
    // Every chunk but the last holds CHUNK_BYTES (a put's Rechunker): the first one read is the one `from` falls in.
    let seq = Math.floor(from / CHUNK_BYTES);
    let skip = from - seq * CHUNK_BYTES;
    let read = from >= size ? size : seq * CHUNK_BYTES;
    return new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          if (read >= size) return controller.close();
          const row = await this.db.one<{ bytes: Uint8Array }>(
            "SELECT bytes FROM media_chunks WHERE sha256 = $1 AND seq = $2",
            [sha256, seq],
          );
          if (!row) {
            return controller.error(
              new ChorusError("E_MESSAGE_NOT_FOUND", "The medium is gone (its bytes are not in the store)."),
            );
          }
          seq++;
          read += row.bytes.byteLength;
          mediaGarbage.streamed(row.bytes.byteLength);
          controller.enqueue(skip > 0 ? row.bytes.subarray(skip) : row.bytes);
          skip = 0;
          if (read >= size) controller.close();
        },
      },
      { highWaterMark: 0 },
    );
  }

  release(sha256: string): Promise<void> {
    return this.db.tx(async (sql) => {
      await lockHash(sql, sha256);
      if (!(await referenced(sql, sha256))) await sql.run("DELETE FROM media_chunks WHERE sha256 = $1", [sha256]);
    });
  }

  /** Deletes the temporary chunks of puts a crash interrupted (older than `LEFTOVER_AFTER_MS`); resolves with the rows removed. */
  sweep(now: number): Promise<number> {
    return this.db.run(
      "DELETE FROM media_chunks WHERE sha256 LIKE 'tmp-%' AND split_part(sha256, '-', 2)::bigint < $1",
      [now - LEFTOVER_AFTER_MS],
    );
  }
}
