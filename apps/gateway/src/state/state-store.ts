import { join } from "node:path";
import { DbChannelStore, storeScope } from "./channel-store.js";
import { InboxTable } from "./inbox-table.js";
import { KvTable } from "./kv-table.js";
import { LeasesTable } from "./leases-table.js";
import { OutboxTable } from "./outbox-table.js";
import { RefsTable } from "./refs-table.js";
import { SessionsTable } from "./sessions-table.js";
import { redactUrl } from "./sql/redact-url.js";
import { addedColumns, SCHEMA_VERSION, schemaStatements } from "./sql/schema.js";
import type { SqlDb } from "./sql/sql.js";
import { SqliteDb } from "./sql/sqlite-db.js";
import { TranscriptsTable } from "./transcripts-table.js";

/** `state` in the config: the embedded SQLite file (default) or a PostgreSQL server. */
export type StateConfig =
  | { backend: "sqlite"; file?: string }
  | { backend: "postgres"; url: string; poolSize?: number };

export interface OpenStateOptions {
  /** The home, where `chorus.db` lives. */
  home: string;
  /** References kept per conversation in the message index. */
  refsPerConversation?: number;
  /** Problems the driver reports in the background (a dropped idle connection). */
  onError?: (error: Error) => void;
}

/** `<home>/chorus.db`. */
export function sqliteFile(home: string, config: StateConfig = { backend: "sqlite" }): string {
  return config.backend === "sqlite" && config.file ? config.file : join(home, "chorus.db");
}

/**
 * The gateway's one state layer (DESIGN §5) on SQLite or PostgreSQL: sessions, transcripts, the
 * message index, pairing, channels' stores, the inbox, the outbox and leases, as tables of one
 * database (see the gateway README, "State").
 */
export class StateStore {
  readonly sessions: SessionsTable;
  readonly transcripts: TranscriptsTable;
  readonly refs: RefsTable;
  readonly kv: KvTable;
  readonly inbox: InboxTable;
  readonly outbox: OutboxTable;
  readonly leases: LeasesTable;
  readonly #stores = new Map<string, DbChannelStore>();

  private constructor(
    readonly db: SqlDb,
    /** Where the state is, safe to show (no password). */
    readonly where: string,
    options: OpenStateOptions,
  ) {
    this.sessions = new SessionsTable(db);
    this.transcripts = new TranscriptsTable(db);
    this.refs = new RefsTable(db, options.refsPerConversation ?? 1000);
    this.kv = new KvTable(db);
    this.inbox = new InboxTable(db, this.refs);
    this.outbox = new OutboxTable(db, this.transcripts);
    this.leases = new LeasesTable(db);
  }

  /** Opens the database and creates or checks its tables. */
  static async open(config: StateConfig, options: OpenStateOptions): Promise<StateStore> {
    const db =
      config.backend === "postgres"
        ? // The PostgreSQL client is loaded only by a gateway configured for it.
          new (await import("./sql/postgres-db.js")).PostgresDb(config.url, {
            max: config.poolSize ?? 10,
            ...(options.onError ? { onError: options.onError } : {}),
          })
        : new SqliteDb(sqliteFile(options.home, config));
    const where = config.backend === "postgres" ? redactUrl(config.url) : sqliteFile(options.home, config);
    try {
      await migrate(db);
    } catch (error) {
      await db.close().catch(() => undefined);
      throw error;
    }
    return new StateStore(db, where, options);
  }

  get backend(): "sqlite" | "postgres" {
    return this.db.dialect;
  }

  /** The `ctx.store` of one channel account. */
  channelStore(channel: string, accountId: string, now?: () => number): DbChannelStore {
    const scope = storeScope(channel, accountId);
    if (now) return new DbChannelStore(this.kv, scope, now);
    let store = this.#stores.get(scope);
    if (!store) {
      store = new DbChannelStore(this.kv, scope);
      this.#stores.set(scope, store);
    }
    return store;
  }

  /** A `meta` value. */
  async meta(key: string): Promise<string | undefined> {
    return (await this.db.one<{ value: string }>("SELECT value FROM meta WHERE key = $1", [key]))?.value;
  }

  async setMeta(key: string, value: string): Promise<void> {
    await this.db.run(
      "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
      [key, value],
    );
  }

  async close(): Promise<void> {
    await this.db.close();
  }
}

async function migrate(db: SqlDb): Promise<void> {
  await db.tx(async (sql) => {
    // Several gateways may start at once on one PostgreSQL: one creates the tables, the others wait.
    if (sql.dialect === "postgres") await sql.run("SELECT pg_advisory_xact_lock(7243190001)");
    for (const statement of schemaStatements(sql.dialect)) await sql.run(statement);
    await addedColumns(sql);
    const row = await sql.one<{ value: string }>("SELECT value FROM meta WHERE key = 'schema'");
    if (row && Number(row.value) > SCHEMA_VERSION) {
      throw new Error(`the state database has schema ${row.value}; this gateway knows ${SCHEMA_VERSION}: upgrade it`);
    }
    if (!row) await sql.run("INSERT INTO meta (key, value) VALUES ('schema', $1)", [String(SCHEMA_VERSION)]);
  });
}
