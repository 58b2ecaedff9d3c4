import type { Dialect } from "./sql.js";

/** The schema version this gateway writes (`meta.schema`). */
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
    // The durable inbox; (channel, account, event_id) is the dedupe record.
    `CREATE TABLE IF NOT EXISTS inbox (
      id ${id}, channel TEXT NOT NULL, account TEXT NOT NULL, event_id TEXT NOT NULL,
      session_key TEXT, event TEXT NOT NULL, status TEXT NOT NULL, received_at BIGINT NOT NULL,
      done_at BIGINT, UNIQUE (channel, account, event_id))`,
    "CREATE INDEX IF NOT EXISTS inbox_received ON inbox (session_key, id) WHERE status = 'received'",
    "CREATE INDEX IF NOT EXISTS inbox_done ON inbox (done_at) WHERE status = 'done'",
    // Group messages kept as context (status 'buffered'): the next triggered turn of the session reads them.
    "CREATE INDEX IF NOT EXISTS inbox_buffered ON inbox (session_key, id) WHERE status = 'buffered'",
    // The durable outbox: replies recorded before they are sent.
    `CREATE TABLE IF NOT EXISTS outbox (
      id ${id}, session_key TEXT NOT NULL, channel TEXT NOT NULL, account TEXT NOT NULL,
      scope TEXT NOT NULL, text TEXT NOT NULL, reply_to TEXT, idempotency_key TEXT NOT NULL,
      transcript_id BIGINT, status TEXT NOT NULL, platform_id TEXT, created_at BIGINT NOT NULL,
      sent_at BIGINT)`,
    "CREATE INDEX IF NOT EXISTS outbox_pending ON outbox (session_key, id) WHERE status = 'pending'",
    // Leases of connection-holding channel accounts (several gateways on one PostgreSQL).
    `CREATE TABLE IF NOT EXISTS leases (
      name TEXT PRIMARY KEY, holder TEXT NOT NULL, token BIGINT NOT NULL, expires_at BIGINT NOT NULL)`,
  ];
}
