import { describe, expect, it } from "vitest";
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
