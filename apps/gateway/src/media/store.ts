import { randomBytes } from "node:crypto";
import { type AttachmentKind, ChorusError } from "@chorus/core";
import type { Sql, SqlDb } from "../state/index.js";
import type { Blobs } from "./blobs.js";
import { defaultFilename, sanitizeFilename } from "./filename.js";
import { SNIFF_BYTES, sniffMedium } from "./sniff.js";
import type { MediaStore, PutMediumOptions, StoredMedium } from "./types.js";

/** `med_` and a random URL-safe id (128 bits): unguessable, so a medium is reached only by who was given it. */
export function newMediaId(): string {
  return `med_${randomBytes(16).toString("base64url")}`;
}

/** What a media id looks like (anything else is no medium). */
export const MEDIA_ID_PATTERN = /^med_[A-Za-z0-9_-]{8,64}$/;

interface MediaRow {
  media_id: string;
  sha256: string;
  size: number;
  mime: string;
  kind: string;
  filename: string;
  created_at: number;
}

function mediumOf(row: MediaRow): StoredMedium {
  return {
    mediaId: row.media_id,
    sha256: row.sha256,
    size: Number(row.size),
    mime: row.mime,
    kind: row.kind as AttachmentKind,
    filename: row.filename,
    createdAt: Number(row.created_at),
  };
}

/** Rows pending in the outbox refer to these media: retention keeps them. */
const PENDING_REFS = `SELECT om.media_id FROM outbox_media om JOIN outbox o ON o.id = om.outbox_id
  WHERE o.status = 'pending' AND om.media_id IS NOT NULL`;

/** Media pruned per pass at most (the sweep runs again later for more). */
const PRUNE_BATCH = 500;

/**
 * The media store on the state layer (DESIGN §2.6): a `media` row per medium (its id, hash, sniffed
 * kind and type, name, time) and its bytes once per hash in `blobs` — files beside SQLite, chunks
 * in PostgreSQL. Each put gets its own id, so two media with the same bytes may have different names.
 */
export class DbMediaStore implements MediaStore {
  constructor(
    private readonly db: SqlDb,
    readonly blobs: Blobs,
    private readonly options: { retentionMs: number; now?: () => number },
  ) {}

  async put(bytes: ReadableStream<Uint8Array>, options: PutMediumOptions): Promise<StoredMedium> {
    const given = options.filename === undefined ? undefined : sanitizeFilename(options.filename);
    const mediaId = newMediaId();
    const createdAt = (this.options.now ?? Date.now)();
    let medium: StoredMedium | undefined;
    await this.blobs.put(
      bytes,
      { maxBytes: options.maxBytes, what: given ? `"${given}"` : "The medium", signal: options.signal },
      async (facts) => {
        const sniffed = await sniffMedium(facts.head, facts.size <= SNIFF_BYTES);
        const stored: StoredMedium = {
          mediaId,
          sha256: facts.sha256,
          size: facts.size,
          mime: sniffed.mime,
          kind: sniffed.kind,
          filename: given ?? defaultFilename(sniffed.kind, sniffed.ext),
          createdAt,
        };
        medium = stored;
        return async (sql: Sql) => {
          await insert(sql, stored);
        };
      },
    );
    return medium as StoredMedium;
  }

  async get(mediaId: string): Promise<StoredMedium | undefined> {
    if (!MEDIA_ID_PATTERN.test(mediaId)) return undefined;
    const row = await this.db.one<MediaRow>("SELECT * FROM media WHERE media_id = $1", [mediaId]);
    return row && mediumOf(row);
  }

  async open(mediaId: string, from = 0): Promise<{ medium: StoredMedium; stream: ReadableStream<Uint8Array> }> {
    const medium = await this.get(mediaId);
    if (!medium) {
      throw new ChorusError(
        "E_MESSAGE_NOT_FOUND",
        `There is no medium ${safeId(mediaId)} (never stored, or past its retention).`,
      );
    }
    return { medium, stream: this.blobs.open(medium.sha256, medium.size, Math.min(Math.max(0, from), medium.size)) };
  }

  async remove(mediaId: string): Promise<void> {
    const medium = await this.get(mediaId);
    if (!medium) return;
    await this.db.run(`DELETE FROM media WHERE media_id = $1 AND media_id NOT IN (${PENDING_REFS})`, [mediaId]);
    await this.blobs.release(medium.sha256);
  }

  /**
   * Deletes media older than the retention that no pending outbox row refers to, then their bytes
   * where no other medium has them, and what interrupted puts left; with several gateways, one
   * prunes at a time.
   */
  async prune(now = (this.options.now ?? Date.now)()): Promise<number> {
    const ran = await this.db.withLock("media:prune", async () => {
      const cutoff = now - this.options.retentionMs;
      const old = await this.db.all<{ media_id: string; sha256: string }>(
        `SELECT media_id, sha256 FROM media WHERE created_at < $1 AND media_id NOT IN (${PENDING_REFS})
         ORDER BY created_at LIMIT ${PRUNE_BATCH}`,
        [cutoff],
      );
      let deleted = 0;
      const hashes = new Set<string>();
      for (const row of old) {
        // Checked again in the delete: a reply recorded meanwhile keeps its medium.
        deleted += await this.db.run(
          `DELETE FROM media WHERE media_id = $1 AND created_at < $2 AND media_id NOT IN (${PENDING_REFS})`,
          [row.media_id, cutoff],
        );
        hashes.add(row.sha256);
      }
      for (const sha256 of hashes) await this.blobs.release(sha256);
      await this.db.run(
        "DELETE FROM outbox_media WHERE outbox_id IN (SELECT id FROM outbox WHERE status <> 'pending')",
      );
      await this.blobs.sweep(now);
      return deleted;
    });
    return ran.ran ? ran.value : 0;
  }
}

function insert(sql: Sql, medium: StoredMedium): Promise<number> {
  return sql.run(
    `INSERT INTO media (media_id, sha256, size, mime, kind, filename, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [medium.mediaId, medium.sha256, medium.size, medium.mime, medium.kind, medium.filename, medium.createdAt],
  );
}

/** A media id fit for a message: only what a media id may hold. */
export function safeId(mediaId: string): string {
  return MEDIA_ID_PATTERN.test(mediaId) ? mediaId : JSON.stringify(mediaId.slice(0, 80));
}
