import { rowCount, type Sql, type SqlDb } from "./sql/sql.js";

/** A transcript entry as stored: its JSON object (the gateway's `TranscriptEntry`). */
export type StoredTranscriptEntry = Record<string, unknown> & { messageId?: string };

/**
 * The `transcripts` table: one row per entry, appended per turn; reading the last N entries costs
 * the same at any transcript length. A reply's `messageId` is filled in once it was sent.
 */
export class TranscriptsTable {
  constructor(private readonly db: SqlDb) {}

  /** Appends entries; resolves with their row ids, in order. */
  async append(sql: Sql, sessionId: string, entries: readonly StoredTranscriptEntry[]): Promise<number[]> {
    const ids: number[] = [];
    for (const entry of entries) {
      const row = await sql.one<{ id: number }>(
        "INSERT INTO transcripts (session_id, entry) VALUES ($1, $2) RETURNING id",
        [sessionId, JSON.stringify(entry)],
      );
      ids.push(row?.id as number);
    }
    return ids;
  }

  /** The session's entries, the last `limit` when given, oldest first. */
  async read(sessionId: string, limit?: number, sql: Sql = this.db): Promise<StoredTranscriptEntry[]> {
    const rows =
      limit === undefined
        ? await sql.all<{ entry: string; message_id: string | null }>(
            "SELECT entry, message_id FROM transcripts WHERE session_id = $1 ORDER BY id",
            [sessionId],
          )
        : (
            await sql.all<{ entry: string; message_id: string | null }>(
              `SELECT entry, message_id FROM transcripts WHERE session_id = $1 ORDER BY id DESC LIMIT ${rowCount(limit)}`,
              [sessionId],
            )
          ).reverse();
    return rows.map((row) => {
      const entry = JSON.parse(row.entry) as StoredTranscriptEntry;
      // A fresh object of this read's own: the id is set on it rather than on a copy.
      if (row.message_id !== null) entry.messageId = row.message_id;
      return entry;
    });
  }

  /** Replaces the whole transcript (compaction). */
  async replace(sql: Sql, sessionId: string, entries: readonly StoredTranscriptEntry[]): Promise<void> {
    await sql.run("DELETE FROM transcripts WHERE session_id = $1", [sessionId]);
    await this.append(sql, sessionId, entries);
  }

  /** Deletes the transcript. */
  async remove(sessionId: string): Promise<void> {
    await this.db.run("DELETE FROM transcripts WHERE session_id = $1", [sessionId]);
  }

  /** Records the platform id of the message an entry produced. */
  async setMessageId(sql: Sql, id: number, messageId: string): Promise<void> {
    await sql.run("UPDATE transcripts SET message_id = $1 WHERE id = $2", [messageId, id]);
  }
}
