import { appendFile, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CorruptFileError } from "@chorus/channel-kit/state";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TranscriptStore } from "./transcript.js";
import type { TranscriptEntry } from "./transcript-entry.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-transcript-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const SESSION = "3f2b8c1e-0d7a-4c55-9d1e-6a3b2c1d0e9f";

function turn(n: number): TranscriptEntry[] {
  return [
    {
      at: "2030-01-01T00:00:00.000Z",
      role: "user",
      content: `question ${n}`,
      name: "Ann",
      messageId: `in-${n}`,
      turnId: `t${n}`,
    },
    {
      at: "2030-01-01T00:00:01.000Z",
      role: "tool",
      content: "",
      name: "message",
      toolCallId: `c${n}`,
      input: { action: "react", emoji: "👍" },
      output: { ok: true },
      turnId: `t${n}`,
    },
    { at: "2030-01-01T00:00:02.000Z", role: "assistant", content: `answer ${n}\nwith a second line`, turnId: `t${n}` },
  ];
}

describe("TranscriptStore", () => {
  it("appends JSONL to <dir>/<sessionId>.jsonl, creating the directory, and reads it back", async () => {
    const store = new TranscriptStore(join(dir, "nested", "sessions"));
    await store.append(SESSION, turn(1));
    await store.append(SESSION, turn(2));
    const path = join(dir, "nested", "sessions", `${SESSION}.jsonl`);
    const lines = (await readFile(path, "utf8")).split("\n");
    expect(lines).toHaveLength(7); // six entries, each ending with a newline
    expect(lines[6]).toBe("");
    expect(JSON.parse(lines[0] as string)).toEqual(turn(1)[0]);
    expect(await store.read(SESSION)).toEqual([...turn(1), ...turn(2)]);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it("returns the last `limit` entries", async () => {
    const store = new TranscriptStore(dir);
    for (let n = 1; n <= 4; n++) await store.append(SESSION, turn(n));
    expect(await store.read(SESSION, { limit: 2 })).toEqual(turn(4).slice(1));
    expect(await store.read(SESSION, { limit: 0 })).toEqual([]);
    expect(await store.read(SESSION, { limit: 100 })).toHaveLength(12);
    await expect(store.read(SESSION, { limit: -1 })).rejects.toMatchObject({ code: "E_INVALID_INPUT" });
  });

  it("reads only the end of a long transcript for `limit`, with multi-byte text across chunk edges", async () => {
    const store = new TranscriptStore(dir);
    const long = "ü€👍".repeat(3000);
    for (let n = 0; n < 60; n++)
      await store.append(SESSION, [{ at: "2030-01-01T00:00:00.000Z", role: "user", content: `${n} ${long}` }]);
    expect((await stat(store.pathOf(SESSION))).size).toBeGreaterThan(4 * 64 * 1024);
    const last = await store.read(SESSION, { limit: 3 });
    expect(last.map((e) => e.content.split(" ")[0])).toEqual(["57", "58", "59"]);
    expect(last.every((e) => e.content.endsWith(long))).toBe(true);
    expect((await store.read(SESSION, { limit: 100 })).length).toBe(60);
    expect(await store.read(SESSION, { limit: 0 })).toEqual([]);
  });

  it("a torn last line is skipped when reading the tail too", async () => {
    const store = new TranscriptStore(dir);
    await store.append(SESSION, [...turn(1), ...turn(2)]);
    await appendFile(store.pathOf(SESSION), '{"at":"2030-01-01T00:00:00.000Z","role":"us');
    expect((await store.read(SESSION, { limit: 2 })).map((e) => e.content)).toEqual(
      (await store.read(SESSION)).slice(-2).map((e) => e.content),
    );
    expect(await store.read(SESSION, { limit: 2 })).toHaveLength(2);
  });

  it("reads a missing transcript as empty", async () => {
    expect(await new TranscriptStore(dir).read(SESSION)).toEqual([]);
  });

  it("keeps concurrent appends of one session whole and in call order", async () => {
    const store = new TranscriptStore(dir);
    await Promise.all(Array.from({ length: 30 }, (_, n) => store.append(SESSION, turn(n))));
    const entries = await store.read(SESSION);
    expect(entries).toEqual(Array.from({ length: 30 }, (_, n) => turn(n)).flat());
  });

  it("skips a torn last line, and the next append cuts it off", async () => {
    const store = new TranscriptStore(dir);
    await store.append(SESSION, turn(1));
    const path = join(dir, `${SESSION}.jsonl`);
    const torn = JSON.stringify(turn(2)[0]).slice(0, 25);
    await appendFile(path, torn);
    expect(await store.read(SESSION)).toEqual(turn(1));
    await store.append(SESSION, turn(3));
    expect(await store.read(SESSION)).toEqual([...turn(1), ...turn(3)]);
    const lines = (await readFile(path, "utf8")).split("\n");
    expect(lines.pop()).toBe("");
    expect(lines.map((line) => JSON.parse(line))).toEqual([...turn(1), ...turn(3)]);
  });

  it("keeps a complete last entry that only lost its newline", async () => {
    const store = new TranscriptStore(dir);
    const path = join(dir, `${SESSION}.jsonl`);
    const [first] = turn(1);
    await writeFile(path, JSON.stringify(first));
    expect(await store.read(SESSION)).toEqual([first]);
    await store.append(SESSION, turn(2));
    expect(await store.read(SESSION)).toEqual([first, ...turn(2)]);
  });

  it("repairs a torn line longer than one read chunk", async () => {
    const store = new TranscriptStore(dir);
    await store.append(SESSION, turn(1));
    await appendFile(join(dir, `${SESSION}.jsonl`), `{"at":"x","role":"user","content":"${"y".repeat(200_000)}`);
    await store.append(SESSION, turn(2));
    expect(await store.read(SESSION)).toEqual([...turn(1), ...turn(2)]);
  });

  it("reports corruption in the middle as a CorruptFileError naming file and line", async () => {
    const store = new TranscriptStore(dir);
    const path = join(dir, `${SESSION}.jsonl`);
    const good = JSON.stringify(turn(1)[0]);
    await writeFile(path, `${good}\n{broken\n${good}\n`);
    const error = await store.read(SESSION).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CorruptFileError);
    expect((error as CorruptFileError).message).toContain(`${path} line 2`);
    expect((error as CorruptFileError).line).toBe(2);
    await writeFile(path, `${good}\n{"at":"x","role":"robot","content":""}\n`);
    await expect(store.read(SESSION)).rejects.toThrow(/line 2 .*role/);
  });

  it("rejects invalid entries before writing anything", async () => {
    const store = new TranscriptStore(dir);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const bad = [turn(1)[0], { at: "x", role: "user", content: "c", input: cyclic }] as TranscriptEntry[];
    await expect(store.append(SESSION, bad)).rejects.toMatchObject({ code: "E_INVALID_INPUT" });
    await expect(store.append(SESSION, [{ at: "x", role: "bot", content: "" } as never])).rejects.toThrow(/role/);
    expect(await readdir(dir)).toEqual([]);
  });

  it("refuses session ids that are not safe file names", async () => {
    const store = new TranscriptStore(dir);
    for (const id of ["../escape", "a/b", "", ".hidden"]) {
      await expect(store.read(id)).rejects.toMatchObject({ code: "E_INVALID_INPUT" });
      await expect(store.append(id, turn(1))).rejects.toThrow(/not a session id/);
    }
  });

  it("rewrites a transcript atomically and removes it", async () => {
    const store = new TranscriptStore(dir);
    await store.append(SESSION, turn(1));
    await store.append(SESSION, turn(2));
    const summary: TranscriptEntry = {
      at: "2030-01-02T00:00:00.000Z",
      role: "system",
      content: "summary of turns 1-2",
    };
    await store.rewrite(SESSION, [summary]);
    expect(await store.read(SESSION)).toEqual([summary]);
    await store.append(SESSION, turn(3));
    expect(await store.read(SESSION)).toEqual([summary, ...turn(3)]);
    expect((await readdir(dir)).filter((name) => name.endsWith(".tmp"))).toEqual([]);
    await store.remove(SESSION);
    expect(await store.read(SESSION)).toEqual([]);
    await store.remove(SESSION);
  });
});
