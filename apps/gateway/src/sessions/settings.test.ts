import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestState, type TestState } from "../testing/index.js";
import { readSessionsFile } from "./entry.js";
import { withSettings } from "./settings.js";
import { type SessionInit, SessionStore } from "./store.js";

let dir: string;
let test: TestState;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-settings-"));
  test = await openTestState(undefined, dir);
});
afterEach(async () => {
  await test.close();
  await rm(dir, { recursive: true, force: true });
});

const open = () => SessionStore.open(test.state, "main", dir, { onWarning: () => undefined });

const group: SessionInit = {
  agentId: "main",
  channel: "memory",
  accountId: "default",
  conversationId: "g1",
  chatType: "group",
};
const KEY = "agent:main:memory:group:g1";

function fileWith(settings: unknown) {
  const at = "2030-01-01T00:00:00.000Z";
  return {
    version: 1,
    sessions: { [KEY]: { key: KEY, sessionId: "s1", ...group, createdAt: at, updatedAt: at, turns: 2, settings } },
  };
}

describe("session settings as sessions.json holds them", () => {
  it("reads each known setting with its type, and keeps keys a newer gateway wrote", () => {
    const settings = { activation: "always", groupIntroduced: true, verbose: true, think: "high", future: { x: 1 } };
    const [entry] = readSessionsFile("sessions.json", fileWith(settings)).entries;
    expect(entry?.settings).toEqual(settings);
  });

  it("drops a value of the wrong kind instead of trusting it, and keeps the session", () => {
    const read = readSessionsFile(
      "sessions.json",
      fileWith({ activation: "loud", groupIntroduced: "yes", verbose: 1, think: "deep", keep: true }),
    );
    expect(read.problems).toEqual([]);
    expect(read.entries[0]?.settings).toEqual({ keep: true });
  });
});

describe("SessionStore.settings and changeSettings", () => {
  it("a session that does not exist has no settings", async () => {
    const store = await open();
    expect(store.settings(KEY)).toEqual({});
  });

  it("changeSettings creates the session from init, merges, removes a setting set to undefined, and persists", async () => {
    const store = await open();
    store.changeSettings(KEY, { activation: "always", verbose: true }, group);
    store.changeSettings(KEY, { think: "low", verbose: undefined });
    expect(store.settings(KEY)).toEqual({ activation: "always", think: "low" });
    await store.flush();
    const file = JSON.parse(await readFile(join(dir, "sessions.json"), "utf8"));
    expect(file.sessions[KEY].settings).toEqual({ activation: "always", think: "low" });
    expect((await open()).settings(KEY)).toEqual({ activation: "always", think: "low" });
  });

  it("changeSettings without init needs the session to exist", async () => {
    const store = await open();
    expect(() => store.changeSettings(KEY, { verbose: true })).toThrow(/no session/);
  });

  it("update never changes settings, so changeSettings is the one writer", async () => {
    const store = await open();
    store.changeSettings(KEY, { verbose: true }, group);
    const patch = { turns: 1, settings: { verbose: false } } as Parameters<SessionStore["update"]>[1];
    expect(store.update(KEY, patch).settings).toEqual({ verbose: true });
  });

  it("a setting read from disk with the wrong kind is gone after the next write", async () => {
    const file = fileWith({ activation: "loud", verbose: true }) as {
      sessions: Record<string, Record<string, unknown>>;
    };
    await test.state.db.tx((sql) =>
      test.state.sessions.save(
        sql,
        [{ key: KEY, agentId: "main", entry: file.sessions[KEY] as Record<string, unknown> }],
        1,
      ),
    );
    const store = await open();
    expect(store.settings(KEY)).toEqual({ verbose: true });
  });
});

describe("withSettings", () => {
  it("applies changes without touching the original", () => {
    const before = Object.freeze({ verbose: true });
    expect(withSettings(before, { think: "off" })).toEqual({ verbose: true, think: "off" });
    expect(before).toEqual({ verbose: true });
  });
});
