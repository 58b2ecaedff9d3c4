import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { requirePackage } from "../../support/index.js";
import { rowCount } from "./sql.js";
import { SqliteDb } from "./sqlite-db.js";

describe("rowCount", () => {
  it("writes a whole number ≥ 0 into a statement's text, and refuses anything else by name", () => {
    expect(rowCount(40)).toBe("40");
    expect(rowCount(0)).toBe("0");
    for (const bad of [-1, 2.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60])
      expect(() => rowCount(bad)).toThrow(/a row count must be a whole number ≥ 0, not /);
  });

  it("limits the rows read like a bound LIMIT", async () => {
    const db = new SqliteDb(":memory:");
    db.exec("CREATE TABLE t (n INTEGER)");
    for (let n = 1; n <= 5; n++) await db.run("INSERT INTO t (n) VALUES ($1)", [n]);
    const rows = await db.all<{ n: number }>(`SELECT n FROM t WHERE n > $1 ORDER BY n DESC LIMIT ${rowCount(2)}`, [1]);
    expect(rows.map((row) => row.n)).toEqual([5, 4]);
    await db.close();
  });
});

describe("SqliteDb transactions", () => {
  it("a BEGIN refused by another process's lock fails the transaction, and later statements still run", async () => {
    const dir = await mkdtemp(join(tmpdir(), "chorus-sqlite-locked-"));
    const file = join(dir, "state.db");
    const db = new SqliteDb(file, { busyTimeoutMs: 50 });
    db.exec("CREATE TABLE t (n INTEGER)");
    const { DatabaseSync } = requirePackage("@photostructure/sqlite") as typeof import("@photostructure/sqlite");
    const other = new DatabaseSync(file);
    other.exec("BEGIN IMMEDIATE");
    await expect(db.tx((sql) => sql.run("INSERT INTO t (n) VALUES (1)"))).rejects.toThrow(
      /the state database .*state\.db is unavailable: the database file is locked by another process \(SQLITE_BUSY\)/,
    );
    other.exec("COMMIT");
    other.close();

    expect(await db.one<{ count: number }>("SELECT count(*) AS count FROM t")).toEqual({ count: 0 });
    await db.tx((sql) => sql.run("INSERT INTO t (n) VALUES (2)"));
    expect(await db.all<{ n: number }>("SELECT n FROM t")).toEqual([{ n: 2 }]);
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });
});
