import type { Dialect, Sql } from "./sql.js";

/**
 * The schema version this gateway writes (`meta.schema`). Columns added to a table (`ADDED_COLUMNS`)
 * do not change it: a gateway that does not know them still reads and writes the tables.
 */
export const SCHEMA_VERSION = 1;

/**
 * Every table of the state layer (see the gateway README, "State"). JSON is kept as text, times
 * as epoch milliseconds, so one set of statements serves both engines.
 */
export function schemaStatements(dialect: Dialect): string[] {
  const id = dialect === "sqlite" ? "INTEGER PRIMARY KEY AUTOINCREMENT" : "BIGSERIAL PRIMARY KEY";
  return [
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    // Session entries: the JSON sessions.json mirrors, by key (the key names the agent).
    `CREATE TABLE IF NOT EXISTS sessions (
      key TEXT PRIMARY KEY, agent_id TEXT NOT NULL, entry TEXT NOT NULL, updated_at BIGINT NOT NULL)`,
    "CREATE INDEX IF NOT EXISTS sessions_agent ON sessions (agent_id)",
    // Transcripts: one row per entry; message_id is filled in when the reply it records was sent.
    `CREATE TABLE IF NOT EXISTS transcripts (
      id ${id}, session_id TEXT NOT NULL, entry TEXT NOT NULL, message_id TEXT)`,
    "CREATE INDEX IF NOT EXISTS transcripts_session ON transcripts (session_id, id)",
    // The message index (DESIGN §2.3), bounded per conversation by seq.
    `CREATE TABLE IF NOT EXISTS message_refs (
      channel TEXT NOT NULL, account TEXT NOT NULL, conversation TEXT NOT NULL, message_id TEXT NOT NULL,
      ref TEXT NOT NULL, seq BIGINT NOT NULL, PRIMARY KEY (channel, account, conversation, message_id))`,
    "CREATE INDEX IF NOT EXISTS message_refs_seq ON message_refs (channel, account, conversation, seq)",
    // Small JSON documents: channels' ctx.store (scope `store:<channel>:<account>`), pairing.
    `CREATE TABLE IF NOT EXISTS kv (
      scope TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, expires_at BIGINT,
      PRIMARY KEY (scope, key))`,
    // The durable inbox; (channel, account, event_id) is the dedupe record. Its added columns: below.
    `CREATE TABLE IF NOT EXISTS inbox (
      id ${id}, channel TEXT NOT NULL, account TEXT NOT NULL, event_id TEXT NOT NULL,
      session_key TEXT, event TEXT NOT NULL, status TEXT NOT NULL, received_at BIGINT NOT NULL,
      done_at BIGINT, UNIQUE (channel, account, event_id))`,
    "CREATE INDEX IF NOT EXISTS inbox_received ON inbox (session_key, id) WHERE status = 'received'",
    "CREATE INDEX IF NOT EXISTS inbox_done ON inbox (done_at) WHERE status = 'done'",
    // Group messages kept as context (status 'buffered'): the next triggered turn of the session reads them.
    "CREATE INDEX IF NOT EXISTS inbox_buffered ON inbox (session_key, id) WHERE status = 'buffered'",
    // The durable outbox: replies recorded before they are sent. Its added columns: below.
    `CREATE TABLE IF NOT EXISTS outbox (
      id ${id}, session_key TEXT NOT NULL, channel TEXT NOT NULL, account TEXT NOT NULL,
      scope TEXT NOT NULL, text TEXT NOT NULL, reply_to TEXT, idempotency_key TEXT NOT NULL,
      transcript_id BIGINT, status TEXT NOT NULL, platform_id TEXT, created_at BIGINT NOT NULL,
      sent_at BIGINT)`,
    "CREATE INDEX IF NOT EXISTS outbox_pending ON outbox (session_key, id) WHERE status = 'pending'",
    // Leases of connection-holding channel accounts (several gateways on one PostgreSQL).
    `CREATE TABLE IF NOT EXISTS leases (
      name TEXT PRIMARY KEY, holder TEXT NOT NULL, token BIGINT NOT NULL, expires_at BIGINT NOT NULL)`,
    ...mediaTables(dialect),
  ];
}

/**
 * The media store (DESIGN §2.6): a row per medium; its bytes once per sha256 — files under
 * `<home>/media/blobs/` with SQLite, `media_chunks` (≤ 256 KiB each) with PostgreSQL — and the
 * media the outbox's rows send (kept from retention while a row is pending).
 */
function mediaTables(dialect: Dialect): string[] {
  return [
    `CREATE TABLE IF NOT EXISTS media (
      media_id TEXT PRIMARY KEY, sha256 TEXT NOT NULL, size BIGINT NOT NULL, mime TEXT NOT NULL,
      kind TEXT NOT NULL, filename TEXT NOT NULL, created_at BIGINT NOT NULL)`,
    "CREATE INDEX IF NOT EXISTS media_sha256 ON media (sha256)",
    "CREATE INDEX IF NOT EXISTS media_created ON media (created_at)",
    `CREATE TABLE IF NOT EXISTS media_chunks (
      sha256 TEXT NOT NULL, seq INTEGER NOT NULL, bytes ${dialect === "postgres" ? "BYTEA" : "BLOB"} NOT NULL,
      PRIMARY KEY (sha256, seq))`,
    `CREATE TABLE IF NOT EXISTS outbox_media (
      outbox_id BIGINT NOT NULL, seq INTEGER NOT NULL, media_id TEXT, item TEXT NOT NULL,
      PRIMARY KEY (outbox_id, seq))`,
    "CREATE INDEX IF NOT EXISTS outbox_media_id ON outbox_media (media_id)",
  ];
}

/**
 * Columns added to tables after their `CREATE TABLE`, each nullable: a database made before them
 * gets them at start (`addedColumns`), and a new one the same way, after `schemaStatements`.
 */
const ADDED_COLUMNS: readonly { table: string; column: string; type: string }[] = [
  // What became of an inbound event (`chorus trace`): the handle step's outcome, and its details as JSON.
  { table: "inbox", column: "outcome", type: "TEXT" },
  { table: "inbox", column: "outcome_detail", type: "TEXT" },
  // The platform's id of a message (lookups by `chorus trace`); null for reactions.
  { table: "inbox", column: "message_id", type: "TEXT" },
  // Redeliveries the dedupe dropped, and the last one's time.
  { table: "inbox", column: "redeliveries", type: "INTEGER" },
  { table: "inbox", column: "redelivered_at", type: "BIGINT" },
  // The inbound message a reply answers; the attempts to send it and the last one's error.
  { table: "outbox", column: "inbox_id", type: "BIGINT" },
  { table: "outbox", column: "attempts", type: "INTEGER" },
  { table: "outbox", column: "error", type: "TEXT" },
];

/** Indexes on added columns (created once the columns exist). */
const ADDED_INDEXES = [
  "CREATE INDEX IF NOT EXISTS inbox_message ON inbox (channel, message_id)",
  "CREATE INDEX IF NOT EXISTS outbox_inbox ON outbox (inbox_id)",
];

/**
 * Adds the columns of `ADDED_COLUMNS` a table lacks, then their indexes, in the caller's (migration)
 * transaction: PostgreSQL says `ADD COLUMN IF NOT EXISTS`; SQLite, which cannot, is asked which
 * columns each table has.
 */
export async function addedColumns(sql: Sql): Promise<void> {
  const tables = [...new Set(ADDED_COLUMNS.map((c) => c.table))];
  const existing = new Map<string, Set<string>>();
  if (sql.dialect === "sqlite") {
    for (const table of tables) {
      const columns = await sql.all<{ name: string }>(`SELECT name FROM pragma_table_info('${table}')`);
      existing.set(table, new Set(columns.map((c) => c.name)));
    }
  }
  for (const { table, column, type } of ADDED_COLUMNS) {
    if (sql.dialect === "postgres") await sql.run(`ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS ${column} ${type}`);
    else if (!existing.get(table)?.has(column)) await sql.run(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
  }
  for (const statement of ADDED_INDEXES) await sql.run(statement);
}
