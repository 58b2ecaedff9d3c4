import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { silentLogger } from "@chorus/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { CoalescedJsonFile } from "./json-file.js";
import { tempDir } from "./support.test.util.js";

let dir: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir("json"));
});

afterEach(async () => {
  await cleanup();
});

describe("CoalescedJsonFile", () => {
  it("writes a burst of changes once, with the latest snapshot", async () => {
    const file = new CoalescedJsonFile<{ n: number }>(join(dir, "state.json"), { logger: silentLogger, delayMs: 20 });
    let snapshots = 0;
    let n = 0;
    for (let i = 0; i < 100; i++) {
      n = i;
      file.schedule(() => {
        snapshots++;
        return { n };
      });
    }
    await file.flush();
    expect(snapshots).toBe(1);
    expect(JSON.parse(await readFile(join(dir, "state.json"), "utf8"))).toEqual({ n: 99 });
    await file.flush();
    expect(snapshots).toBe(1);
  });

  it("creates the directory, reads back what it wrote and reports a missing file as undefined", async () => {
    const path = join(dir, "nested", "deeper", "state.json");
    const file = new CoalescedJsonFile<{ n: number }>(path, { logger: silentLogger });
    const schema = z.object({ n: z.number() });
    expect(await file.read(schema)).toBeUndefined();
    file.schedule(() => ({ n: 7 }));
    await file.flush();
    expect(await file.read(schema)).toEqual({ n: 7 });
  });

  it("fails a flush with E_PLATFORM naming the file when it cannot write, and succeeds once it can", async () => {
    await writeFile(join(dir, "blocker"), "a file where a directory should be");
    const path = join(dir, "blocker", "state.json");
    const file = new CoalescedJsonFile<{ n: number }>(path, { logger: silentLogger });
    file.schedule(() => ({ n: 1 }));
    await expect(file.flush()).rejects.toMatchObject({
      code: "E_PLATFORM",
      message: expect.stringContaining(`cannot write ${path}`),
    });
    expect(await readdir(dir)).toEqual(["blocker"]);
    await rm(join(dir, "blocker"));
    await file.flush();
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({ n: 1 });
  });
});
