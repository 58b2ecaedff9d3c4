import pg from "pg";
import { redactUrl } from "./redact-url.js";
import type { Sql, SqlDb, TxOptions } from "./sql.js";
import { classifyStateError } from "./state-errors.js";

export { redactUrl } from "./redact-url.js";

/** int8 (`BIGINT`, `count(*)`) as a JS number: every integer this layer stores fits in 2^53. */
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === 20 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as "text")) as never,
};

/** Where the database is, and how its errors are reported: the password never, a transient failure typed. */
interface Reporting {
  password: string;
  /** `host:port/database`, without credentials. */
  where: string;
}

/** An error from the driver with the password taken out of whatever it says, a connection failure typed. */
function scrub(error: unknown, { password, where }: Reporting): unknown {
  if (error instanceof Error && password !== "" && error.message.includes(password))
    error.message = error.message.split(password).join("***");
  return classifyStateError(error, where);
}

function handle(client: pg.ClientBase | pg.Pool, reporting: Reporting): Sql {
  const all = async <T>(text: string, args: readonly unknown[] = []): Promise<T[]> => {
    try {
      return (await client.query(text, args as unknown[])).rows as T[];
    } catch (error) {
      throw scrub(error, reporting);
    }
  };
  return {
    dialect: "postgres",
    all,
    one: async <T>(text: string, args?: readonly unknown[]) => (await all<T>(text, args))[0],
    run: async (text: string, args: readonly unknown[] = []) => {
      try {
        return (await client.query(text, args as unknown[])).rowCount ?? 0;
      } catch (error) {
        throw scrub(error, reporting);
      }
    },
  };
}

/** 64-bit advisory lock key of a name (PostgreSQL's own `hashtextextended`). */
const LOCK_KEY = "hashtextextended($1, 0)";

/**
 * PostgreSQL through `pg`: a pool of connections; a transaction holds one connection; named locks
 * are session advisory locks on a connection held for the work, released when it ends or when the
 * connection drops (a killed gateway). A connection that drops — idle in the pool or held by a
 * transaction or a lock — is an error of the work using it (a `StateUnavailableError`), never an
 * uncaught one: the server going away does not end the gateway, and the pool connects again.
 */
export class PostgresDb implements SqlDb {
  readonly dialect = "postgres" as const;
  readonly #pool: pg.Pool;
  readonly #reporting: Reporting;
  readonly #sql: Sql;

  constructor(url: string, options: { max?: number; onError?: (error: Error) => void } = {}) {
    let password = "";
    try {
      password = decodeURIComponent(new URL(url).password);
    } catch {
      // an unparsable URL: pg reports it, and nothing in it is shown
    }
    this.#reporting = { password, where: redactUrl(url) };
    this.#pool = new pg.Pool({ connectionString: url, max: options.max ?? 10, types, connectionTimeoutMillis: 10_000 });
    // An idle connection the server dropped: the pool replaces it; say so without the URL.
    this.#pool.on("error", (error) => options.onError?.(scrub(error, this.#reporting) as Error));
    this.#sql = handle(this.#pool, this.#reporting);
  }

  all<T>(text: string, args?: readonly unknown[]): Promise<T[]> {
    return this.#sql.all<T>(text, args);
  }

  one<T>(text: string, args?: readonly unknown[]): Promise<T | undefined> {
    return this.#sql.one<T>(text, args);
  }

  run(text: string, args?: readonly unknown[]): Promise<number> {
    return this.#sql.run(text, args);
  }

  async tx<T>(work: (sql: Sql) => Promise<T>, options: TxOptions<T> = {}): Promise<T> {
    const { client, release } = await this.#connect();
    try {
      await client.query("BEGIN");
      const value = await work(handle(client, this.#reporting));
      await client.query("COMMIT");
      options.committed?.(value);
      return value;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw scrub(error, this.#reporting);
    } finally {
      release();
    }
  }

  async withLock<T>(name: string, work: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }> {
    const { client, release } = await this.#connect();
    let broken = false;
    try {
      const { rows } = await client.query(`SELECT pg_try_advisory_lock(${LOCK_KEY}) AS ok`, [name]).catch((error) => {
        throw scrub(error, this.#reporting);
      });
      if (rows[0]?.ok !== true) return { ran: false };
      try {
        return { ran: true, value: await work() };
      } finally {
        await client.query(`SELECT pg_advisory_unlock(${LOCK_KEY})`, [name]).catch(() => {
          broken = true;
        });
      }
    } finally {
      // A connection whose unlock failed may still hold the lock: drop it rather than reuse it.
      release(broken);
    }
  }

  /**
   * A connection from the pool, held by one piece of work. While held, an error the connection
   * emits (the server ended it) is heard here — the work's next query fails with it — and the
   * connection is not given back to the pool but destroyed.
   */
  async #connect(): Promise<{ client: pg.PoolClient; release(broken?: boolean): void }> {
    let client: pg.PoolClient;
    try {
      client = await this.#pool.connect();
    } catch (error) {
      throw scrub(error, this.#reporting);
    }
    let dropped = false;
    const onError = () => {
      dropped = true;
    };
    client.on("error", onError);
    return {
      client,
      release: (broken = false) => {
        client.off("error", onError);
        client.release(broken || dropped);
      },
    };
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }
}
