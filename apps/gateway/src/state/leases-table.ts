import { ChorusError } from "@chorus/core";
import type { Sql, SqlDb } from "./sql/sql.js";

/** A lease as held: its fencing token goes up each time the lease changes hands. */
export interface Lease {
  name: string;
  holder: string;
  token: number;
  expiresAt: number;
}

/** The database's clock in epoch ms (PostgreSQL), so gateways on several machines agree on expiry. */
function clock(sql: Sql, now: number): { expr: string; args: unknown[] } {
  return sql.dialect === "postgres"
    ? { expr: "(extract(epoch from clock_timestamp()) * 1000)::bigint", args: [] }
    : { expr: String(Math.trunc(now)), args: [] };
}

/**
 * Leases on names (one per connection-holding channel account): one holder at a time, taken over
 * only once expired, each takeover with a higher fencing token. Writes made under a lease check
 * its token (`fence`), so a holder that lost it (paused, partitioned) cannot commit anything.
 */
export class LeasesTable {
  constructor(private readonly db: SqlDb) {}

  /** Takes or renews the lease for `ttlMs`; resolves with it, or undefined while another holds it. */
  async acquire(name: string, holder: string, ttlMs: number, now = Date.now()): Promise<Lease | undefined> {
    const { expr } = clock(this.db, now);
    const row = await this.db.one<{ token: number; expires_at: number; holder: string }>(
      `INSERT INTO leases (name, holder, token, expires_at) VALUES ($1, $2, 1, ${expr} + $3)
       ON CONFLICT (name) DO UPDATE SET
         token = CASE WHEN leases.holder = excluded.holder THEN leases.token ELSE leases.token + 1 END,
         holder = excluded.holder, expires_at = excluded.expires_at
       WHERE leases.holder = excluded.holder OR leases.expires_at < ${expr}
       RETURNING token, expires_at, holder`,
      [name, holder, ttlMs],
    );
    return row ? { name, holder: row.holder, token: row.token, expiresAt: row.expires_at } : undefined;
  }

  /** Gives the lease up (a clean stop): another gateway takes it at once. */
  async release(name: string, holder: string, token: number): Promise<void> {
    await this.db.run("UPDATE leases SET expires_at = 0 WHERE name = $1 AND holder = $2 AND token = $3", [
      name,
      holder,
      token,
    ]);
  }

  /** Throws (in the caller's transaction) unless `holder` still holds `name` with `token`. */
  async fence(sql: Sql, name: string, holder: string, token: number, now = Date.now()): Promise<void> {
    const { expr } = clock(sql, now);
    const row = await sql.one<{ ok: number }>(
      `SELECT 1 AS ok FROM leases WHERE name = $1 AND holder = $2 AND token = $3 AND expires_at > ${expr}`,
      [name, holder, token],
    );
    if (!row) {
      throw new ChorusError("E_DISABLED", `this gateway no longer holds the lease on ${name}`, { retryable: false });
    }
  }

  /** Every lease (who holds which account). */
  async all(): Promise<Lease[]> {
    const rows = await this.db.all<{ name: string; holder: string; token: number; expires_at: number }>(
      "SELECT name, holder, token, expires_at FROM leases ORDER BY name",
    );
    return rows.map((r) => ({ name: r.name, holder: r.holder, token: r.token, expiresAt: r.expires_at }));
  }
}
