import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { JsonValue, Logger } from "@chorus/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { importLegacyFile } from "./legacy-import.js";
import { MemoryStore } from "./memory-store.js";

let dir: string;
const lines: string[] = [];
const logger: Logger = {
  debug: () => {},
  info: (_f: unknown, m?: string) => void lines.push(`info ${m}`),
  warn: (_f: unknown, m?: string) => void lines.push(`warn ${m}`),
  error: () => {},
  child: () => logger,
} as Logger;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-legacy-"));
  lines.length = 0;
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const reactions = (content: unknown): [string, JsonValue][] => {
  const map = (content as { reactions?: Record<string, string[]> }).reactions;
  if (!map) throw new Error("no reactions map");
  return Object.entries(map).map(([key, value]) => [`botReactions/${key}`, value]);
};

describe("importLegacyFile", () => {
  it("imports each entry once, keeps newer store values, and renames the file to .imported", async () => {
    const file = join(dir, "bot-reactions.json");
    await writeFile(file, JSON.stringify({ reactions: { "c:1": ["👍"], "c:2": ["❤"] } }));
    const store = new MemoryStore();
    await store.set("botReactions/c:2", ["🔥"]);
    expect(await importLegacyFile(store, logger, { file, entries: reactions })).toBe(2);
    expect(await store.list("botReactions/")).toEqual([
      { key: "botReactions/c:1", value: ["👍"] },
      { key: "botReactions/c:2", value: ["🔥"] },
    ]);
    expect(await readdir(dir)).toEqual(["bot-reactions.json.imported"]);
    expect(JSON.parse(await readFile(join(dir, "bot-reactions.json.imported"), "utf8")).reactions["c:1"]).toEqual([
      "👍",
    ]);
    expect(await importLegacyFile(store, logger, { file, entries: reactions })).toBe(0);
    expect(lines).toEqual(["info imported earlier channel state into the store"]);
  });

  it("sets aside a file that is not JSON, or not of the expected shape, with a warning", async () => {
    const broken = join(dir, "broken.json");
    await writeFile(broken, "{");
    const wrong = join(dir, "wrong.json");
    await writeFile(wrong, JSON.stringify({ something: "else" }));
    const store = new MemoryStore();
    expect(await importLegacyFile(store, logger, { file: broken, entries: reactions })).toBe(0);
    expect(await importLegacyFile(store, logger, { file: wrong, entries: reactions })).toBe(0);
    expect(lines).toEqual([
      `warn could not import ${broken} (not valid JSON); set it aside`,
      `warn could not import ${wrong} (no reactions map); set it aside`,
    ]);
    expect((await readdir(dir)).every((f) => f.includes(".corrupt-"))).toBe(true);
  });
});
