import { copyFile, mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "@photostructure/sqlite";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BackgroundCheckpoints } from "./background-checkpoints.js";
import { SqliteDb } from "./sqlite-db.js";

const dirs: string[] = [];
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), "chorus-checkpoints-"));
  dirs.push(dir);
  return dir;
};
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const WAIT = { timeout: 10_000, interval: 10 };

async function autocheckpoint(db: SqliteDb): Promise<number | undefined> {
  return (await db.one<{ wal_autocheckpoint: number }>("PRAGMA wal_autocheckpoint"))?.wal_autocheckpoint;
}

/** The rows of `t` in the database file alone: a copy without its WAL shows only what a checkpoint copied. */
async function rowsInDatabaseFile(file: string): Promise<number> {
  const copy = join(await tempDir(), "copy.db");
  await copyFile(file, copy);
  const db = new DatabaseSync(copy);
  try {
    return Number((db.prepare("SELECT count(*) AS n FROM t").get() as { n: number }).n);
  } finally {
    db.close();
  }
}

describe("background checkpoints", () => {
  it("move the WAL's pages into the database file on the worker once commits come, with the commits' own checkpoints off", async () => {
    const file = join(await tempDir(), "state.db");
    const db = new SqliteDb(file, { checkpoints: { intervalMs: 20, idleMs: 60_000, startAfterWrites: 10 } });
    await db.run("CREATE TABLE t (n INTEGER)");
    expect(await autocheckpoint(db)).toBe(10_000);
    for (let n = 0; n < 9; n++) await db.tx((sql) => sql.run("INSERT INTO t (n) VALUES ($1)", [n]));
    // Ten commits (the table's creation is one): the worker starts and, once ready, the commits stop checkpointing.
    expect(db.backgroundCheckpoints.running).toBe(true);
    await vi.waitFor(async () => expect(await autocheckpoint(db)).toBe(0), WAIT);

    for (let n = 9; n < 500; n++) await db.tx((sql) => sql.run("INSERT INTO t (n) VALUES ($1)", [n]));
    await vi.waitFor(async () => expect(await rowsInDatabaseFile(file)).toBe(500), WAIT);
    expect(db.backgroundCheckpoints.checkpoints).toBeGreaterThan(0);
    await db.close();
  });

  it("end after the idle time, the commits checkpointing again, and start again under new commits", async () => {
    const file = join(await tempDir(), "state.db");
    const db = new SqliteDb(file, { checkpoints: { intervalMs: 10, idleMs: 100, startAfterWrites: 5 } });
    await db.run("CREATE TABLE t (n INTEGER)");
    for (let n = 0; n < 4; n++) await db.run("INSERT INTO t (n) VALUES ($1)", [n]);
    await vi.waitFor(async () => expect(await autocheckpoint(db)).toBe(0), WAIT);
    await vi.waitFor(() => expect(db.backgroundCheckpoints.running).toBe(false), WAIT);
    expect(await autocheckpoint(db)).toBe(10_000);
    expect(await rowsInDatabaseFile(file)).toBe(4);

    for (let n = 4; n < 9; n++) await db.run("INSERT INTO t (n) VALUES ($1)", [n]);
    expect(db.backgroundCheckpoints.running).toBe(true);
    await vi.waitFor(async () => expect(await rowsInDatabaseFile(file)).toBe(9), WAIT);
    await db.close();
  });

  it("are closed before the main connection, which then checkpoints what is left and empties the WAL", async () => {
    const file = join(await tempDir(), "state.db");
    const db = new SqliteDb(file, { checkpoints: { intervalMs: 60_000, idleMs: 60_000, startAfterWrites: 2 } });
    await db.run("CREATE TABLE t (n INTEGER)");
    await db.run("INSERT INTO t (n) VALUES (1)");
    await vi.waitFor(async () => expect(await autocheckpoint(db)).toBe(0), WAIT);
    for (let n = 2; n <= 50; n++) await db.run("INSERT INTO t (n) VALUES ($1)", [n]);
    await db.close();
    // SQLite removes it only when no other connection ever read; empty, the next start has nothing to read.
    const wal = await stat(`${file}-wal`).catch(() => undefined);
    expect(wal?.size ?? 0).toBe(0);
    expect(await rowsInDatabaseFile(file)).toBe(50);
  });

  it("that cannot run are said once, and the commits keep checkpointing", async () => {
    const missing = join(await tempDir(), "no-such-directory", "state.db");
    const inline: boolean[] = [];
    const warnings: Error[] = [];
    const checkpoints = new BackgroundCheckpoints(missing, {
      inline: (on) => inline.push(on),
      warn: (error) => warnings.push(error),
      startAfterWrites: 1,
    });
    checkpoints.wrote();
    await vi.waitFor(() => expect(inline).toEqual([true]), WAIT);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toMatch(
      /^the checkpoint thread of .*no-such-directory\/state\.db failed \(.*unable to open database file.*\): checkpoints run in the commits from now on$/,
    );
    checkpoints.wrote();
    expect(checkpoints.running).toBe(false);
    await checkpoints.close();
  });
});
