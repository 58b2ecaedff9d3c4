import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { requirePackage } from "../../support/index.js";
import { StateStore } from "../state-store.js";
import { SqliteDb } from "./sqlite-db.js";

const { DatabaseSync } = requirePackage("@photostructure/sqlite") as typeof import("@photostructure/sqlite");
const modeOf = async (path: string) => (await stat(path)).mode & 0o777;
const FILES = ["chorus.db", "chorus.db-wal", "chorus.db-shm"];

let dir: string;
let umask: number;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-sqlite-private-"));
  umask = process.umask(0o022);
});
afterEach(async () => {
  process.umask(umask);
  await rm(dir, { recursive: true, force: true });
});

describe.skipIf(process.platform === "win32")("the SQLite state file is readable by its owner only", () => {
  it("a new database, its -wal and -shm are 0600, in a new 0700 directory, under umask 022", async () => {
    const home = join(dir, "home");
    const state = await StateStore.open({ backend: "sqlite" }, { home });
    try {
      await state.kv.set("scope", "key", JSON.stringify("a chat"), undefined);
      expect(await modeOf(home)).toBe(0o700);
      for (const name of FILES) expect(await modeOf(join(home, name)), name).toBe(0o600);
    } finally {
      await state.close();
    }
  });

  it("an existing 0644 database with a 0644 WAL (an older install, still open) is tightened to 0600", async () => {
    const file = join(dir, "chorus.db");
    const older = new DatabaseSync(file);
    older.exec("PRAGMA journal_mode = WAL");
    older.exec("CREATE TABLE chats (text TEXT); INSERT INTO chats VALUES ('a chat')");
    try {
      for (const name of FILES) expect(await modeOf(join(dir, name)), name).toBe(0o644);
      const db = new SqliteDb(file);
      try {
        for (const name of FILES) expect(await modeOf(join(dir, name)), name).toBe(0o600);
        expect(await db.all("SELECT text FROM chats")).toEqual([{ text: "a chat" }]);
      } finally {
        await db.close();
      }
    } finally {
      older.close();
    }
  });
});
