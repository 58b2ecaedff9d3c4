import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { corruptCopyPath, setCorruptFileAside } from "./corrupt-file.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-corrupt-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("setCorruptFileAside", () => {
  it("moves the file to <path>.corrupt-<timestamp> without overwriting an earlier copy", async () => {
    const path = join(dir, "sessions.json");
    const now = new Date("2030-01-02T03:04:05.678Z");
    expect(corruptCopyPath(path, now)).toBe(`${path}.corrupt-2030-01-02T03-04-05-678Z`);
    await writeFile(path, "first");
    const first = await setCorruptFileAside(path, { now });
    await writeFile(path, "second");
    const second = await setCorruptFileAside(path, { now });
    expect(first).toBe(corruptCopyPath(path, now));
    expect(second).toBe(`${first}-1`);
    expect(await readFile(first, "utf8")).toBe("first");
    expect(await readFile(second, "utf8")).toBe("second");
    expect((await readdir(dir)).sort()).toEqual([
      "sessions.json.corrupt-2030-01-02T03-04-05-678Z",
      "sessions.json.corrupt-2030-01-02T03-04-05-678Z-1",
    ]);
  });

  it("copies instead of moving with keepOriginal", async () => {
    const path = join(dir, "x.json");
    await writeFile(path, "keep");
    const copy = await setCorruptFileAside(path, { keepOriginal: true });
    expect(await readFile(path, "utf8")).toBe("keep");
    expect(await readFile(copy, "utf8")).toBe("keep");
  });
});
