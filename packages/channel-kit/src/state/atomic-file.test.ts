import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isChorusError } from "@chorus/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readJsonFile, writeFileAtomic } from "./atomic-file.js";
import { CorruptFileError } from "./corrupt-file.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-atomic-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("writeFileAtomic", () => {
  it("creates missing parent directories and writes strings and bytes", async () => {
    const path = join(dir, "a", "b", "c.json");
    await writeFileAtomic(path, '{"x":1}');
    expect(await readFile(path, "utf8")).toBe('{"x":1}');
    await writeFileAtomic(path, new Uint8Array([104, 105]));
    expect(await readFile(path, "utf8")).toBe("hi");
  });

  it.skipIf(process.platform === "win32")("creates missing directories owner-only, whatever the umask", async () => {
    const previous = process.umask(0o022);
    try {
      await writeFileAtomic(join(dir, "a", "b", "c.json"), "x");
    } finally {
      process.umask(previous);
    }
    expect((await stat(join(dir, "a"))).mode & 0o777).toBe(0o700);
    expect((await stat(join(dir, "a", "b"))).mode & 0o777).toBe(0o700);
    expect((await stat(join(dir, "a", "b", "c.json"))).mode & 0o777).toBe(0o600);
  });

  it("replaces the target and leaves no temp file behind", async () => {
    const path = join(dir, "state.json");
    await writeFile(path, "old");
    await writeFileAtomic(path, "new");
    expect(await readFile(path, "utf8")).toBe("new");
    expect(await readdir(dir)).toEqual(["state.json"]);
  });

  it("writes private files by default and honours an explicit mode", async () => {
    const path = join(dir, "private.json");
    await writeFileAtomic(path, "x");
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    await writeFileAtomic(path, "y", { mode: 0o644 });
    expect((await stat(path)).mode & 0o777).toBe(0o644);
  });

  it("keeps concurrent writers apart: the result is one complete version, no temp files left", async () => {
    const path = join(dir, "race.json");
    const versions = Array.from({ length: 20 }, (_, i) => JSON.stringify({ writer: i, pad: "x".repeat(10_000 + i) }));
    await Promise.all(versions.map((text) => writeFileAtomic(path, text)));
    expect(versions).toContain(await readFile(path, "utf8"));
    expect(await readdir(dir)).toEqual(["race.json"]);
  });

  it("removes its temp file and throws a typed error naming the file when the rename fails", async () => {
    const path = join(dir, "taken");
    await mkdir(join(path, "occupied"), { recursive: true }); // a non-empty directory cannot be renamed over
    const error = await writeFileAtomic(path, "data").catch((caught: unknown) => caught);
    expect(isChorusError(error)).toBe(true);
    expect((error as Error).message).toContain(path);
    expect(await readdir(dir)).toEqual(["taken"]);
  });
});

describe("readJsonFile", () => {
  it("returns undefined for a missing file and the value for a JSON file", async () => {
    expect(await readJsonFile(join(dir, "missing.json"))).toBeUndefined();
    await writeFile(join(dir, "ok.json"), '{"a":[1,2]}');
    expect(await readJsonFile<{ a: number[] }>(join(dir, "ok.json"))).toEqual({ a: [1, 2] });
  });

  it("throws a CorruptFileError naming the file for invalid JSON", async () => {
    const path = join(dir, "bad.json");
    await writeFile(path, '{"a":');
    const error = await readJsonFile(path).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CorruptFileError);
    expect((error as CorruptFileError).code).toBe("E_INVALID_INPUT");
    expect((error as CorruptFileError).message).toContain(path);
    expect((error as CorruptFileError).path).toBe(path);
  });

  it("reports other read failures as E_PLATFORM naming the file", async () => {
    const error = await readJsonFile(dir).catch((caught: unknown) => caught); // a directory: EISDIR
    expect(isChorusError(error) && error.code).toBe("E_PLATFORM");
    expect((error as Error).message).toContain(dir);
  });
});
