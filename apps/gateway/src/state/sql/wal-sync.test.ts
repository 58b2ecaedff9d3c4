import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SqliteDb } from "./sqlite-db.js";
import { WalSync } from "./wal-sync.js";

const dirs: string[] = [];
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), "chorus-wal-sync-"));
  dirs.push(dir);
  return dir;
};
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function openDb(): Promise<{ db: SqliteDb; file: string }> {
  const file = join(await tempDir(), "state.db");
  const db = new SqliteDb(file);
  await db.run("CREATE TABLE t (n INTEGER)");
  return { db, file };
}

describe("WalSync", () => {
  it("makes the commits made while a sync runs share the next one", async () => {
    const { db, file } = await openDb();
    const walSync = new WalSync(file);
    await db.run("INSERT INTO t (n) VALUES (1)");
    const first = walSync.sync();
    // Committed after the first sync started: each needs a sync that starts later, and they share it.
    const later = [walSync.sync(), walSync.sync(), walSync.sync()];
    await Promise.all([first, ...later]);
    expect(walSync.syncs).toBe(2);
    await walSync.sync();
    expect(walSync.syncs).toBe(3);
    await walSync.close();
    await db.close();
  });

  it("names the WAL file it could not sync", async () => {
    const dir = await tempDir();
    const walSync = new WalSync(join(dir, "missing.db"));
    await expect(walSync.sync()).rejects.toThrow(
      `could not sync the state database's WAL (${join(dir, "missing.db")}-wal)`,
    );
    await walSync.close();
  });
});

describe("SqliteDb durable transactions", () => {
  it("commits many durable transactions at once with fewer WAL syncs, each visible when it resolves", async () => {
    const { db } = await openDb();
    const values = Array.from({ length: 20 }, (_, i) => i);
    await Promise.all(
      values.map(async (n) => {
        await db.tx((sql) => sql.run("INSERT INTO t (n) VALUES ($1)", [n]), { durable: true });
        expect(await db.one<{ n: number }>("SELECT n FROM t WHERE n = $1", [n])).toEqual({ n });
      }),
    );
    expect(await db.one<{ count: number }>("SELECT count(*) AS count FROM t")).toEqual({ count: 20 });
    expect(db.walSyncs).toBeGreaterThan(0);
    expect(db.walSyncs).toBeLessThan(20);
    await db.close();
  });

  it("gives the value to `committed` before the WAL sync, and resolves after it", async () => {
    const { db } = await openDb();
    let seen: { value: number; syncs: number } | undefined;
    const value = await db.tx(
      async (sql) => {
        await sql.run("INSERT INTO t (n) VALUES (7)");
        return 7;
      },
      {
        durable: true,
        committed: (n) => {
          seen = { value: n, syncs: db.walSyncs };
        },
      },
    );
    expect(value).toBe(7);
    expect(seen).toEqual({ value: 7, syncs: 0 });
    expect(db.walSyncs).toBe(1);
    await db.close();
  });

  it("does not sync for a transaction that is not durable", async () => {
    const { db } = await openDb();
    await db.tx((sql) => sql.run("INSERT INTO t (n) VALUES (1)"));
    expect(db.walSyncs).toBe(0);
    await db.close();
  });
});
