import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readState, writeState } from "./state-file.js";

let stateDir: string;
beforeEach(async () => {
  stateDir = await mkdtemp(join(tmpdir(), "chorus-im-state-"));
});
afterEach(async () => {
  await rm(stateDir, { recursive: true, force: true });
});

describe("writeState", () => {
  it("writes started together land in call order and leave no temp file behind", async () => {
    await Promise.all(Array.from({ length: 20 }, (_, i) => writeState(stateDir, "own-messages.json", [i])));
    expect(await readState(stateDir, "own-messages.json")).toEqual([19]);
    expect(await readdir(stateDir)).toEqual(["own-messages.json"]);
  });
});
