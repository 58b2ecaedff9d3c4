/** Which SQL engine a database speaks: the few places where the two differ ask this. */
export type Dialect = "sqlite" | "postgres";

/**
 * Statements on one database, written once for both engines: `$1`, `$2`… placeholders (SQLite
 * gets them rewritten), `ON CONFLICT … DO UPDATE`, `RETURNING`. Integers come back as numbers.
 */
export interface Sql {
  readonly dialect: Dialect;
  /** Every row the statement returns. */
  all<T>(text: string, args?: readonly unknown[]): Promise<T[]>;
  /** The first row, or undefined. */
  one<T>(text: string, args?: readonly unknown[]): Promise<T | undefined>;
  /** Runs a statement; resolves with the number of rows it changed. */
  run(text: string, args?: readonly unknown[]): Promise<number>;
}

export interface TxOptions<T = unknown> {
  /**
   * The commit reaches the disk before the promise resolves, power loss included (SQLite: a sync
   * of the WAL after the commit, off the event loop and shared by the commits made meanwhile;
   * PostgreSQL commits are always durable).
   */
  durable?: boolean;
  /**
   * Called with the transaction's value as soon as its commit is visible to this process's
   * statements — for a durable one, before it reached the disk (work that only needs the rows
   * may start then; what needs durability waits for the promise).
   */
  committed?: (value: T) => void;
}

/** A database: statements, transactions, and closing it. */
export interface SqlDb extends Sql {
  /** Runs `work` in one transaction: all of it is committed, or none of it. */
  tx<T>(work: (sql: Sql) => Promise<T>, options?: TxOptions<T>): Promise<T>;
  /**
   * Runs `work` holding an exclusive lock named `name` across every process on this database
   * (PostgreSQL: a session advisory lock, released when the connection drops, so a dead
   * gateway holds nothing); `undefined` when another holds it. SQLite has one gateway per file:
   * the lock is taken at once.
   */
  withLock<T>(name: string, work: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }>;
  close(): Promise<void>;
}

/**
 * A row count for `LIMIT`, written into the statement's text rather than bound: SQLite re-prepares
 * a statement whose `LIMIT` is a parameter each time it is bound (its planner reads the value), which
 * cost a turn's history read ~5% of the turn (bench/state.bench.ts). Use it for counts the gateway
 * chooses, so the statements stay few.
 */
export function rowCount(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`a row count must be a whole number ≥ 0, not ${n}`);
  return String(n);
}
