import type { Sql, SqlDb } from "./sql/sql.js";

/** One entry of a `kv` scope. */
export interface KvEntry {
  key: string;
  value: string;
}

const ALIVE = "(expires_at IS NULL OR expires_at > $3)";

/**
 * The `kv` table: small JSON documents by scope and key, with optional expiry (channels'
 * `ctx.store`, the pairing file). `update` is atomic across processes too: PostgreSQL takes a
 * transaction-scoped advisory lock on the key, SQLite's write transaction is exclusive.
 */
export class KvTable {
  constructor(private readonly db: SqlDb) {}

  async get(scope: string, key: string, now: number, sql: Sql = this.db): Promise<string | undefined> {
    const row = await sql.one<{ value: string }>(`SELECT value FROM kv WHERE scope = $1 AND key = $2 AND ${ALIVE}`, [
      scope,
      key,
      now,
    ]);
    return row?.value;
  }

  async set(scope: string, key: string, value: string, expiresAt: number | undefined, sql: Sql = this.db) {
    await sql.run(
      `INSERT INTO kv (scope, key, value, expires_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (scope, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
      [scope, key, value, expiresAt ?? null],
    );
  }

  /** Removes a key; true when it existed and was alive. */
  async delete(scope: string, key: string, now: number, sql: Sql = this.db): Promise<boolean> {
    const alive = await this.get(scope, key, now, sql);
    await sql.run("DELETE FROM kv WHERE scope = $1 AND key = $2", [scope, key]);
    return alive !== undefined;
  }

  /** Alive entries whose key starts with `prefix`, in key order. */
  async list(scope: string, prefix: string, now: number): Promise<KvEntry[]> {
    const rows = await this.db.all<KvEntry>(
      `SELECT key, value FROM kv WHERE scope = $1 AND substr(key, 1, length($2)) = $2 AND ${ALIVE}`,
      [scope, prefix, now],
    );
    return rows.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** Reads, changes and writes one key in one transaction, locked against every other writer of it. */
  update<T>(scope: string, key: string, change: (sql: Sql) => Promise<T>): Promise<T> {
    return this.db.tx(async (sql) => {
      await this.lock(sql, scope, key);
      return change(sql);
    });
  }

  /** Locks one key against every other `update` of it until the caller's transaction ends. */
  async lock(sql: Sql, scope: string, key: string): Promise<void> {
    if (sql.dialect === "postgres") {
      await sql.run("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [`kv|${scope}|${key}`]);
    }
  }

  /** Forgets the expired entries of a scope; resolves with how many. */
  async prune(scope: string, now: number): Promise<number> {
    return this.db.run("DELETE FROM kv WHERE scope = $1 AND expires_at IS NOT NULL AND expires_at <= $2", [scope, now]);
  }

  /** Every key of a scope (for import checks and tests). */
  async count(scope: string): Promise<number> {
    return (await this.db.one<{ n: number }>("SELECT count(*) AS n FROM kv WHERE scope = $1", [scope]))?.n ?? 0;
  }
}
