import type { Sql, SqlDb } from "./sql/sql.js";

/** A session entry as the database keeps it: its JSON (the shape `sessions.json` mirrors). */
export interface SessionRow {
  key: string;
  agentId: string;
  entry: Record<string, unknown>;
}

/** The `sessions` table: one row per session, written per change (never the whole store). */
export class SessionsTable {
  constructor(private readonly db: SqlDb) {}

  /** Every session of one agent. */
  async ofAgent(agentId: string): Promise<Record<string, unknown>[]> {
    return (await this.textsOfAgent(agentId)).map((text) => JSON.parse(text) as Record<string, unknown>);
  }

  /** Every session of one agent, as the JSON text the table holds. */
  async textsOfAgent(agentId: string): Promise<string[]> {
    const rows = await this.db.all<{ entry: string }>("SELECT entry FROM sessions WHERE agent_id = $1", [agentId]);
    return rows.map((row) => row.entry);
  }

  /** Every session, any agent (for `chorus sessions`). */
  async all(): Promise<Record<string, unknown>[]> {
    const rows = await this.db.all<{ entry: string }>("SELECT entry FROM sessions ORDER BY key");
    return rows.map((row) => JSON.parse(row.entry) as Record<string, unknown>);
  }

  /** One session, or undefined. */
  async get(key: string, sql: Sql = this.db): Promise<Record<string, unknown> | undefined> {
    const row = await sql.one<{ entry: string }>("SELECT entry FROM sessions WHERE key = $1", [key]);
    return row ? (JSON.parse(row.entry) as Record<string, unknown>) : undefined;
  }

  /**
   * Writes these sessions (insert or replace). A key names its agent, so an update leaves `agent_id`
   * alone: setting it again would rewrite a page of the `sessions_agent` index on every turn.
   */
  async save(sql: Sql, rows: readonly SessionRow[], now: number): Promise<void> {
    for (const row of rows) {
      await sql.run(
        `INSERT INTO sessions (key, agent_id, entry, updated_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (key) DO UPDATE SET entry = excluded.entry, updated_at = excluded.updated_at`,
        [row.key, row.agentId, JSON.stringify(row.entry), now],
      );
    }
  }

  /** Forgets these sessions. */
  async delete(sql: Sql, keys: readonly string[]): Promise<void> {
    for (const key of keys) await sql.run("DELETE FROM sessions WHERE key = $1", [key]);
  }

  /** Number of sessions. */
  async count(): Promise<number> {
    return (await this.db.one<{ n: number }>("SELECT count(*) AS n FROM sessions"))?.n ?? 0;
  }
}
