import { existsSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync, type DatabaseSyncInstance } from "@photostructure/sqlite";
import type { SessionEntry } from "../../src/sessions/index.js";

/** A read-only look at a home's `chorus.db` (the running gateway keeps writing; WAL lets us read). */
function open(home: string): DatabaseSyncInstance | undefined {
  const file = join(home, "chorus.db");
  if (!existsSync(file)) return undefined;
  return new DatabaseSync(file, { readOnly: true, timeout: 5_000 });
}

/** Runs `read` on the home's database; `fallback` when there is none yet. */
export function withStateDb<T>(home: string, fallback: T, read: (db: DatabaseSyncInstance) => T): T {
  const db = open(home);
  if (!db) return fallback;
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/** A session's transcript entries from the state database, oldest first, with sent replies' ids. */
export function readTranscriptFromState(home: string, sessionId: string): Record<string, unknown>[] {
  return withStateDb(home, [], (db) =>
    (
      db.prepare("SELECT entry, message_id FROM transcripts WHERE session_id = ? ORDER BY id").all(sessionId) as {
        entry: string;
        message_id: string | null;
      }[]
    ).map((row) => {
      const entry = JSON.parse(row.entry) as Record<string, unknown>;
      return row.message_id === null ? entry : { ...entry, messageId: row.message_id };
    }),
  );
}

/** Inbox rows by status, and outbox rows by status. */
export function queueCounts(home: string): { inbox: Record<string, number>; outbox: Record<string, number> } {
  return withStateDb(home, { inbox: {}, outbox: {} }, (db) => {
    const count = (table: string) =>
      Object.fromEntries(
        (
          db.prepare(`SELECT status, count(*) AS n FROM ${table} GROUP BY status`).all() as {
            status: string;
            n: number;
          }[]
        ).map((r) => [r.status, r.n]),
      );
    return { inbox: count("inbox"), outbox: count("outbox") };
  });
}

/** Session entries from the state database (the source of truth; sessions.json mirrors them), by key. */
export function readSessionsFromState(home: string): Record<string, SessionEntry> {
  return withStateDb(home, {}, (db) =>
    Object.fromEntries(
      (db.prepare("SELECT key, entry FROM sessions").all() as { key: string; entry: string }[]).map((r) => [
        r.key,
        JSON.parse(r.entry) as SessionEntry,
      ]),
    ),
  );
}
