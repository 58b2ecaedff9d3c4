import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AtomicFiles } from "./atomic-file.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-wa-atomic-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("AtomicFiles", () => {
  it("parallel writes and reads of one file: every read sees a whole value, the last write wins", async () => {
    const files = new AtomicFiles();
    const path = join(dir, "nested", "value.json");
    const values = Array.from({ length: 30 }, (_, i) => JSON.stringify({ i, pad: "y".repeat(2000 + i) }));
    const reads: Promise<string | undefined>[] = [];
    const writes = values.map((value, i) => {
      const write = files.write(path, value, { sync: i % 5 === 0 });
      reads.push(files.read(path));
      return write;
    });
    await Promise.all(writes);
    for (const [i, read] of (await Promise.all(reads)).entries()) expect(read).toBe(values[i]);
    expect(await files.read(path)).toBe(values.at(-1));
    expect(await readdir(join(dir, "nested"))).toEqual(["value.json"]);
  });

  it("a missing file reads as undefined and removes without error", async () => {
    const files = new AtomicFiles();
    expect(await files.read(join(dir, "none.json"))).toBeUndefined();
    await files.remove(join(dir, "none.json"));
    await files.write(join(dir, "a.json"), "1");
    await files.remove(join(dir, "a.json"));
    await files.settled();
    expect(await readdir(dir)).toEqual([]);
  });
});
