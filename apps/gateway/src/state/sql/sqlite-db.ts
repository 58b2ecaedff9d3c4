import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { DatabaseSyncInstance as Database, StatementSyncInstance as Statement } from "@photostructure/sqlite";
import { makePrivateFile, requirePackage, restrictToOwner } from "../../support/index.js";
import type { Sql, SqlDb, TxOptions } from "./sql.js";
import { classifyStateError } from "./state-errors.js";
import { WalSync } from "./wal-sync.js";

// node:sqlite's API (Node 22.5+), from a package that ships SQLite prebuilt for each platform inside its
// registry tarball: nothing is compiled or downloaded at install, on Node 20 as on 22 and 24.
const { DatabaseSync } = requirePackage("@photostructure/sqlite") as typeof import("@photostructure/sqlite");

/**
 * Transactions on one database file within this process, whatever the connection: a second
 * connection in the same process (the CLI's code in a test, two stores) must wait its turn
 * rather than spin in SQLite's busy handler, which would block the very event loop the first
 * transaction needs to finish. Other processes are held off by SQLite's own lock and busy timeout.
 */
interface FileTurn {
  busy: Promise<void>;
  inTx: boolean;
}
const TURNS = new Map<string, FileTurn>();
/** `FileTurn.busy` while no transaction runs or waits on the file. */
const NO_TURN: Promise<void> = Promise.resolve();

/** What a statement binds: node:sqlite takes no booleans or `undefined` (`#args` maps them). */
type SqlValue = null | number | bigint | string | Uint8Array;

/** A value node:sqlite binds as it is. */
function isBindable(value: unknown): boolean {
  return value !== undefined && typeof value !== "boolean";
}

/** `$1 … $n` → `?` in order, with the argument order each `?` needs. */
function positional(text: string): { text: string; order: number[] } {
  const order: number[] = [];
  const rewritten = text.replace(/\$(\d+)/g, (_, n: string) => {
    order.push(Number(n) - 1);
    return "?";
  });
  return { text: rewritten, order };
}

/**
 * Makes the database and its `-wal`/`-shm` owner-only (0600) before SQLite opens them: SQLite gives
 * the files it creates next to a database the database file's mode, so a new one is created 0600
 * first, and an older install's looser files are tightened. An existing directory is left as it is.
 */
function makeDatabasePrivate(file: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  makePrivateFile(file);
  for (const suffix of ["-wal", "-shm"]) restrictToOwner(`${file}${suffix}`);
}

/**
 * SQLite (node:sqlite's API): one connection, WAL, `synchronous=NORMAL`, a durable commit made
 * durable by a WAL sync off the event loop (`WalSync`; see the gateway README, "State"),
 * checkpoints every ~40 MB of WAL, a busy timeout for the CLI next to a running gateway. Statements are synchronous underneath; a transaction spans awaits, so statements
 * from outside it wait until it ends instead of slipping into it.
 */
export class SqliteDb implements SqlDb {
  readonly dialect = "sqlite" as const;
  readonly #db: Database;
  readonly #statements = new Map<string, { statement: Statement; order: number[]; inOrder: boolean }>();
  /** The transaction running now on this file, any connection of this process (statements from elsewhere wait for it). */
  readonly #turn: FileTurn;
  readonly #walSync: WalSync | undefined;

  constructor(
    readonly file: string,
    options: { busyTimeoutMs?: number } = {},
  ) {
    if (file !== ":memory:") makeDatabasePrivate(file);
    this.#db = new DatabaseSync(file, { timeout: options.busyTimeoutMs ?? 5_000 });
    this.#db.exec("PRAGMA journal_mode = WAL");
    this.#db.exec("PRAGMA synchronous = NORMAL");
    // A checkpoint runs inside the commit that crosses the threshold and costs several ms (it copies
    // pages and fsyncs the database): every ~10,000 pages (~40 MB of WAL) instead of SQLite's 1,000
    // keeps it off all but ~0.1% of turns (bench/state.bench.ts); the WAL file is cut back after.
    this.#db.exec("PRAGMA wal_autocheckpoint = 10000");
    this.#db.exec("PRAGMA journal_size_limit = 67108864");
    // SQLite's default page cache (2 MB), also where a build sets a larger default. A B-tree split that reorders
    // pages parks one under a page number past 1 GB for a moment, and the next commit then walks the
    // whole page cache to drop it: ~3,900 pages at 16 MB, tenths of a ms on a few percent of commits
    // (the tail of bench/state.bench.ts). The B-trees' inner pages, what a turn reads again, still fit.
    this.#db.exec("PRAGMA cache_size = -2000");
    this.#db.exec("PRAGMA foreign_keys = ON");
    const key = file === ":memory:" ? `memory:${Math.random()}` : file;
    let turn = TURNS.get(key);
    if (!turn) {
      turn = { busy: NO_TURN, inTx: false };
      TURNS.set(key, turn);
    }
    this.#turn = turn;
    if (file !== ":memory:") this.#walSync = new WalSync(file);
  }

  /** WAL syncs made for durable commits so far. */
  get walSyncs(): number {
    return this.#walSync?.syncs ?? 0;
  }

  /** Runs BEGIN, COMMIT or ROLLBACK as a prepared statement: `exec` would parse it again each time (~4% of a turn). */
  #control(text: "BEGIN IMMEDIATE" | "COMMIT" | "ROLLBACK"): void {
    this.#prepared(text).statement.run();
  }

  /** Runs DDL (several statements). */
  exec(text: string): void {
    this.#db.exec(text);
  }

  #prepared(text: string) {
    let found = this.#statements.get(text);
    if (!found) {
      const { text: rewritten, order } = positional(text);
      const inOrder = order.every((argument, index) => argument === index);
      found = { statement: this.#db.prepare(rewritten), order, inOrder };
      this.#statements.set(text, found);
    }
    return found;
  }

  /** The values to bind; `args` itself where it already is that (most statements: `$1 … $n` once each, no booleans). */
  #args(prepared: { order: number[]; inOrder: boolean }, args: readonly unknown[]): readonly SqlValue[] {
    const { order, inOrder } = prepared;
    if (inOrder && args.length === order.length && args.every(isBindable)) return args as readonly SqlValue[];
    return order.map((i) => {
      const value = args[i];
      return (typeof value === "boolean" ? (value ? 1 : 0) : value === undefined ? null : value) as SqlValue;
    });
  }

  /** Runs one statement now: its rows (`all`), its first row (`one`) or how many rows it changed (`run`). */
  #now(mode: "all" | "one" | "run", text: string, args: readonly unknown[]): unknown {
    const prepared = this.#prepared(text);
    const values = this.#args(prepared, args);
    if (mode === "all") return prepared.statement.all(...values);
    if (mode === "one") return prepared.statement.get(...values);
    return Number(prepared.statement.run(...values).changes);
  }

  /** The statement API without the transaction guard (inside a transaction, and when none runs). */
  readonly #direct: Sql = {
    dialect: "sqlite",
    all: async <T>(text: string, args: readonly unknown[] = []) => this.#now("all", text, args) as T[],
    one: async <T>(text: string, args: readonly unknown[] = []) => this.#now("one", text, args) as T | undefined,
    run: async (text: string, args: readonly unknown[] = []) => this.#now("run", text, args) as number,
  };

  // The statement runs inside these functions (`#now` is synchronous): no inner promise and no
  // `.catch` promise per call (each one also pays Node 20's promise hooks; a turn makes ~30 calls).
  async all<T>(text: string, args: readonly unknown[] = []): Promise<T[]> {
    if (this.#turn.inTx) await this.#idle();
    try {
      return this.#now("all", text, args) as T[];
    } catch (error) {
      this.#fail(error);
    }
  }

  async one<T>(text: string, args: readonly unknown[] = []): Promise<T | undefined> {
    if (this.#turn.inTx) await this.#idle();
    try {
      return this.#now("one", text, args) as T | undefined;
    } catch (error) {
      this.#fail(error);
    }
  }

  async run(text: string, args: readonly unknown[] = []): Promise<number> {
    if (this.#turn.inTx) await this.#idle();
    try {
      return this.#now("run", text, args) as number;
    } catch (error) {
      this.#fail(error);
    }
  }

  /** A statement's or a commit's error, a busy, locked or full file typed as the state being unavailable. */
  #fail(error: unknown): never {
    throw classifyStateError(error, this.file);
  }

  /** Waits until no transaction runs on the file (each wait on a newer one; never spins on a settled one). */
  async #idle(): Promise<void> {
    let waited: Promise<void> | undefined;
    while (this.#turn.inTx && waited !== this.#turn.busy) {
      waited = this.#turn.busy;
      await waited;
    }
  }

  tx<T>(work: (sql: Sql) => Promise<T>, options: TxOptions<T> = {}): Promise<T> {
    const turn = this.#turn;
    const previous = turn.busy;
    let release = () => {};
    const mine = new Promise<void>((resolve) => {
      release = () => {
        // No transaction queued behind this one: the next one starts without waiting a tick.
        if (turn.busy === mine) turn.busy = NO_TURN;
        resolve();
      };
    });
    turn.busy = mine;
    return this.#transaction(previous === NO_TURN ? undefined : previous, release, work, options);
  }

  /**
   * One transaction after `previous` (one async function rather than a chain of `then`s: a turn runs
   * several, and each promise also pays Node 20's promise hooks). `release` lets the next one start
   * once this one committed or rolled back: it may start while this one's WAL frames are being synced.
   */
  async #transaction<T>(
    previous: Promise<void> | undefined,
    release: () => void,
    work: (sql: Sql) => Promise<T>,
    options: TxOptions<T>,
  ): Promise<T> {
    if (previous) await previous;
    let value: T;
    this.#turn.inTx = true;
    try {
      // Inside the try: a BEGIN that fails (the file locked past the busy timeout) must still clear
      // `inTx`, or every statement after it would wait for a transaction that never ends.
      this.#control("BEGIN IMMEDIATE");
      value = await work(this.#direct);
      this.#control("COMMIT");
    } catch (error) {
      if (this.#db.isTransaction) this.#control("ROLLBACK");
      this.#fail(error);
    } finally {
      this.#turn.inTx = false;
      release();
    }
    options.committed?.(value);
    const walSync = this.#walSync;
    if (options.durable && walSync) {
      try {
        await walSync.sync();
      } catch (error) {
        this.#fail(error);
      }
    }
    return value;
  }

  withLock<T>(_name: string, work: () => Promise<T>): Promise<{ ran: true; value: T }> {
    return work().then((value) => ({ ran: true, value }));
  }

  async close(): Promise<void> {
    await this.#idle();
    await this.#walSync?.close();
    this.#db.close();
  }
}
