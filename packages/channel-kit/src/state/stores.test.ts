import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileStore } from "./file-store.js";
import { MemoryStore } from "./memory-store.js";
import { STORE_CONFORMANCE_CASES } from "./store-conformance.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-store-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function clock() {
  let now = 1_700_000_000_000;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe.each([
  ["MemoryStore", (c: ReturnType<typeof clock>) => new MemoryStore(c.now)],
  ["FileStore", (c: ReturnType<typeof clock>) => new FileStore({ dir, now: c.now, warn: () => {} })],
])("%s conformance", (_, open) => {
  for (const conformance of STORE_CONFORMANCE_CASES) {
    it(conformance.name, async () => {
      const c = clock();
      await conformance.run(open(c), c);
    });
  }
});

describe("FileStore on disk", () => {
  const warnings: string[] = [];
  const open = () => new FileStore({ dir, warn: (message) => warnings.push(message) });
  beforeEach(() => {
    warnings.length = 0;
  });

  it("keeps what was written across instances (a restart), one private file per key group", async () => {
    await open().set("botReactions/c1/m1", ["👍"]);
    await open().set("cursor", 42);
    const reopened = open();
    expect(await reopened.get("botReactions/c1/m1")).toEqual(["👍"]);
    expect(await reopened.get("cursor")).toBe(42);
    expect((await readdir(dir)).sort()).toEqual(["botReactions.json", "cursor.json"]);
    expect((await stat(join(dir, "cursor.json"))).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(join(dir, "cursor.json"), "utf8"))).toEqual({
      version: 1,
      entries: { cursor: { value: 42 } },
    });
  });

  it("sets a corrupt file aside with a warning naming it, and that group starts empty", async () => {
    await writeFile(join(dir, "botReactions.json"), "{ not json");
    await open().set("other", 1);
    const store = open();
    expect(await store.get("botReactions/c1/m1")).toBeUndefined();
    expect(await store.get("other")).toBe(1);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(join(dir, "botReactions.json"));
    expect(warnings[0]).toContain("was not valid JSON");
    expect((await readdir(dir)).some((f) => f.startsWith("botReactions.json.corrupt-"))).toBe(true);
    await store.set("botReactions/c1/m2", ["❤️"]);
    expect(await open().get("botReactions/c1/m2")).toEqual(["❤️"]);
  });

  it("drops entries it cannot read, naming them, and keeps the original file for inspection", async () => {
    await writeFile(
      join(dir, "records.json"),
      JSON.stringify({ version: 1, entries: { "records/good": { value: 1 }, "records/bad": { nothing: true } } }),
    );
    const store = open();
    expect(await store.list("records/")).toEqual([{ key: "records/good", value: 1 }]);
    expect(warnings[0]).toContain("records/bad");
    expect((await readdir(dir)).some((f) => f.startsWith("records.json.corrupt-"))).toBe(true);
  });

  it("reads again a file another process wrote (a login next to a running gateway)", async () => {
    const running = open();
    expect(await running.get("credentials")).toBeUndefined();
    await open().set("credentials", { cookie: "c" });
    expect(await running.get("credentials")).toEqual({ cookie: "c" });
  });

  it("writes many changes of one tick in few writes, all of them durable when set resolves", async () => {
    const store = open();
    await Promise.all(Array.from({ length: 200 }, (_, i) => store.set(`many/${i}`, i)));
    expect((await open().list("many/")).length).toBe(200);
    expect((await readdir(dir)).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });
});
