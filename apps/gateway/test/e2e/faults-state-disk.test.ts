import { execFileSync } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { waitFor } from "@chorus/testkit";
import { DatabaseSync } from "@photostructure/sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { groupMessages, type OpenGroupsGateway, startOpenGroupsGateway } from "../support/telegram-open-groups.js";

/*
 * The SQLite state on a disk that fills up (issue 35, item 3): the home is on a small tmpfs, and a
 * file fills what is left while Telegram messages keep coming. Commits fail (SQLITE_FULL / ENOSPC):
 * the gateway stays up, says so once, acknowledges nothing it could not commit (Telegram keeps the
 * updates), and once there is room again every message is answered exactly once and the database
 * passes SQLite's integrity check.
 */
const GROUP = -1003200000001;
const ANN = { id: 4301, is_bot: false, first_name: "Ann" };

describe("the SQLite state's disk fills up and frees again", () => {
  const mountPoint = mkdtempSync(join(tmpdir(), "chorus-full-disk-"));
  let mounted = false;
  let world: OpenGroupsGateway | undefined;
  afterAll(async () => {
    await world?.close();
    // Lazily: the killed gateway may still be closing its files for a moment.
    if (mounted) execFileSync("umount", ["-l", mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  });

  it("commits fail while the disk is full, nothing is lost or answered twice, and the database stays sound", async () => {
    // A 24 MB disk of its own (the tests run as root on their machines; see .ci/run).
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=24m", "tmpfs", mountPoint]);
    mounted = true;
    const home = join(mountPoint, "home");
    mkdirSync(home);
    world = await startOpenGroupsGateway({ group: { id: GROUP, title: "Full disk" }, home });
    const running = world.gateway;
    const { sent, send, answersTo } = groupMessages(world.telegram, GROUP, ANN);

    for (let n = 0; n < 5; n++) send(n);
    await waitFor(() => sent.every((id) => answersTo(id) === 1), { timeoutMs: 20_000, message: "the first answers" });
    // Fill what is left of the disk. Written until the disk refuses, not to a size read beforehand:
    // the running gateway keeps writing meanwhile, so a size taken from `df` can already be too big.
    const filler = join(mountPoint, "filler");
    fillUntilFull(filler);
    expect(freeBytes(mountPoint)).toBeLessThan(64 * 1024);
    for (let n = 5; n < 30; n++) send(n);
    await waitFor(() => /the state database is unavailable/.test(running.output()), {
      timeoutMs: 20_000,
      message: "the full disk in the log",
    }).catch((error: Error) => {
      throw new Error(`${error.message}:\n${running.output().slice(-3000)}`);
    });
    expect((await running.call("GET", "/healthz")).status).toBe(200);
    rmSync(filler);
    await waitFor(() => sent.every((id) => answersTo(id) >= 1), {
      timeoutMs: 60_000,
      intervalMs: 200,
      message: "every message answered once there is room again",
    });
    expect(sent.filter((id) => answersTo(id) > 1)).toEqual([]);
    expect(running.output()).not.toMatch(/uncaught|restarting the channel|the gateway failed; exiting/i);
    const db = new DatabaseSync(join(home, "chorus.db"), { readOnly: true });
    try {
      expect(db.prepare("PRAGMA integrity_check").all()).toEqual([{ integrity_check: "ok" }]);
    } finally {
      db.close();
    }
  }, 120_000);
});

/** Appends to `path` in ever smaller pieces until the disk has no room for even the smallest. */
function fillUntilFull(path: string): void {
  const fd = openSync(path, "w");
  try {
    for (const size of [1024 * 1024, 64 * 1024, 4096, 512]) {
      const piece = Buffer.alloc(size);
      for (;;) {
        try {
          writeSync(fd, piece);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === "ENOSPC") break;
          throw error;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
}

function freeBytes(mountPoint: string): number {
  return Number(execFileSync("df", ["--output=avail", "-B1", mountPoint]).toString().split("\n")[1]);
}
