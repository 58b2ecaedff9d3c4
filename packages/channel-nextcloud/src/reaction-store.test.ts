import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ReactionStore } from "./reaction-store.js";

let stateDir: string;
beforeEach(async () => {
  stateDir = await mkdtemp(join(tmpdir(), "chorus-nc-store-"));
});
afterEach(async () => {
  await rm(stateDir, { recursive: true, force: true });
});

describe("ReactionStore", () => {
  it("keeps every reaction recorded at once, and a new run reads them all back", async () => {
    const store = new ReactionStore(stateDir);
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.add("room", String(i), i % 2 ? "👍" : "🎉")));
    const reread = new ReactionStore(stateDir);
    await reread.load();
    expect(Array.from({ length: 20 }, (_, i) => reread.get("room", String(i)))).toEqual(
      Array.from({ length: 20 }, (_, i) => [i % 2 ? "👍" : "🎉"]),
    );
    expect(await readdir(stateDir)).toEqual(["reactions.json"]);
  });
});
