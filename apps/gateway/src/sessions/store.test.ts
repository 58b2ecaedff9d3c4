import { mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { waitFor } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestState, type TestState } from "../testing/index.js";
import type { SessionsFile } from "./entry.js";
import { type SessionInit, SessionStore, type SessionStoreOptions } from "./store.js";

/** A session init without a title (a direct chat has none). */
function untitled(init: SessionInit): SessionInit {
  const { title: _title, ...rest } = init;
  return rest;
}

let dir: string;
let test: TestState;
let opened: SessionStore[];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-sessions-"));
  test = await openTestState(undefined, dir);
  opened = [];
});
afterEach(async () => {
  await Promise.allSettled(opened.map((store) => store.close()));
  await test.close();
  await rm(dir, { recursive: true, force: true });
});

async function open(options: SessionStoreOptions = {}): Promise<SessionStore> {
  const store = await SessionStore.open(test.state, "main", dir, { onWarning: () => undefined, ...options });
  opened.push(store);
  return store;
}

async function readFileJson(): Promise<SessionsFile> {
  return JSON.parse(await readFile(join(dir, "sessions.json"), "utf8")) as SessionsFile;
}

const group: SessionInit = {
  agentId: "main",
  channel: "whatsapp",
  accountId: "default",
  conversationId: "120363@g.us",
  chatType: "group",
  title: "Family",
};
const KEY = "agent:main:whatsapp:group:120363@g.us";

describe("SessionStore", () => {
  it("starts empty when there are no sessions, and writes no mirror until something changes", async () => {
    const store = await open();
    expect(store.size).toBe(0);
    expect(store.warnings).toEqual([]);
    await store.flush();
    expect((await readdir(dir)).filter((name) => name.startsWith("sessions"))).toEqual([]);
  });

  it("creates a session with a random UUID once and returns it after", async () => {
    const store = await open({ now: () => new Date("2030-05-06T07:08:09.000Z") });
    const entry = store.ensure(KEY, group);
    expect(entry).toEqual({
      key: KEY,
      sessionId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      agentId: "main",
      channel: "whatsapp",
      accountId: "default",
      conversationId: "120363@g.us",
      chatType: "group",
      title: "Family",
      createdAt: "2030-05-06T07:08:09.000Z",
      updatedAt: "2030-05-06T07:08:09.000Z",
      turns: 0,
      settings: {},
    });
    expect(store.ensure(KEY, { ...group, title: "Other" })).toBe(entry);
    expect(store.ensure("agent:main:main", { ...group, chatType: "direct" }).sessionId).not.toBe(entry.sessionId);
    expect(store.get(KEY)).toBe(entry);
    expect(store.size).toBe(2);
    expect(store.entries().map((e) => e.key)).toEqual([KEY, "agent:main:main"]);
  });

  it("updates with a patch or a function, sets updatedAt, and never changes identity fields", async () => {
    let clock = new Date("2030-01-01T00:00:00.000Z");
    const store = await open({ now: () => clock });
    const created = store.ensure(KEY, group);
    clock = new Date("2030-01-02T00:00:00.000Z");
    store.changeSettings(KEY, { activation: "always" });
    const updated = store.update(KEY, (current) => ({
      ...current,
      turns: current.turns + 1,
      sessionId: "hijack",
      key: "x",
    }));
    expect(updated).toMatchObject({
      key: KEY,
      sessionId: created.sessionId,
      createdAt: "2030-01-01T00:00:00.000Z",
      updatedAt: "2030-01-02T00:00:00.000Z",
      turns: 1,
      settings: { activation: "always" },
    });
    expect(store.get(KEY)).toBe(updated);
  });

  it("rejects updates of unknown sessions and invalid values, naming them", async () => {
    const store = await open();
    expect(() => store.update("agent:main:nope", { turns: 1 })).toThrow(/no session "agent:main:nope"/);
    store.ensure(KEY, group);
    expect(() => store.update(KEY, { turns: -1 })).toThrow(/turns/);
    expect(() => store.ensure("k2", { ...group, chatType: "channel" as "group" })).toThrow(/chatType/);
    expect(store.get(KEY)?.turns).toBe(0);
  });

  it("hands out frozen entries so changes must go through update", async () => {
    const store = await open();
    const entry = store.changeSettings(KEY, { verbose: true }, group);
    expect(() => {
      (entry as { turns: number }).turns = 5;
    }).toThrow(TypeError);
    expect(() => {
      (entry.settings as { verbose?: boolean }).verbose = false;
    }).toThrow(TypeError);
  });

  it("reset gives a new session id and no turns, keeping settings", async () => {
    const store = await open();
    const before = store.changeSettings(KEY, { activation: "always" }, group);
    store.update(KEY, { turns: 4 });
    const after = store.reset(KEY);
    expect(after.sessionId).not.toBe(before.sessionId);
    expect(after).toMatchObject({ turns: 0, settings: { activation: "always" }, createdAt: before.createdAt });
  });

  it("flush puts everything on disk in the documented format, and a new instance reads it back", async () => {
    const store = await open();
    store.ensure(KEY, group);
    store.update(KEY, { turns: 3 });
    store.changeSettings(KEY, { think: "high" });
    store.ensure("agent:main:main", { ...untitled(group), chatType: "direct", conversationId: "+49" });
    expect(store.delete("agent:main:main")).toBe(true);
    expect(store.delete("agent:main:main")).toBe(false);
    await store.flush();
    const file = await readFileJson();
    expect(file.version).toBe(1);
    expect(Object.keys(file.sessions)).toEqual([KEY]);
    expect(file.sessions[KEY]).toEqual(store.get(KEY));

    const reopened = await open();
    expect(reopened.warnings).toEqual([]);
    expect(reopened.entries()).toEqual(store.entries());
  });

  it("the mirror's first write after opening a large store holds every session, never a part", async () => {
    const count = 1_234; // more than one slice of the first copy sent to the mirror's worker
    const keys = Array.from({ length: count }, (_, i) => `agent:main:whatsapp:group:${i}@g.us`);
    const seeding = await open();
    for (const key of keys) seeding.ensure(key, { ...group, conversationId: key });
    await seeding.close();
    await rm(join(dir, "sessions.json"));

    const store = await open();
    store.update(keys[7] as string, { turns: 3 });
    let first: SessionsFile | undefined;
    await waitFor(
      async () => {
        const text = await readFile(join(dir, "sessions.json"), "utf8").catch(() => "");
        first = text === "" ? undefined : (JSON.parse(text) as SessionsFile);
        return first !== undefined;
      },
      { timeoutMs: 5000, message: "the mirror written in the background" },
    );
    expect(Object.keys(first?.sessions ?? {})).toEqual(keys);
    expect(first?.sessions[keys[7] as string]?.turns).toBe(3);

    store.delete(keys[0] as string);
    await store.flush();
    expect(Object.keys((await readFileJson()).sessions)).toEqual(keys.slice(1));
  });

  it("the mirror's first copy, taken from the database's texts, shows each session as the store reads it", async () => {
    const seeding = await open();
    const odd = 'agent:main:whatsapp:group:"quoted"\\back\u00e9@g.us'; // the key's JSON has escapes
    const kept = seeding.ensure(odd, { ...group, conversationId: "odd" });
    const plain = seeding.changeSettings(KEY, { verbose: true }, group);
    await seeding.close();
    // Another writer left a setting of the wrong kind (dropped when read) and a field this gateway does not know (kept).
    const raw = { ...plain, settings: { verbose: "yes", think: "low" }, futureField: [1, 2] };
    await test.state.db.tx((sql) => test.state.sessions.save(sql, [{ key: KEY, agentId: "main", entry: raw }], 1));
    await rm(join(dir, "sessions.json"));

    const store = await open();
    expect(store.get(KEY)?.settings).toEqual({ think: "low" });
    store.ensure("agent:main:main", { ...untitled(group), chatType: "direct", conversationId: "+49" });
    await store.flush();
    const file = await readFileJson();
    expect(Object.keys(file.sessions)).toEqual([odd, KEY, "agent:main:main"]);
    expect(file.sessions[odd]).toEqual(kept);
    expect(file.sessions[KEY]).toEqual({ ...plain, settings: { think: "low" }, futureField: [1, 2] });
    expect(Object.values(file.sessions)).toEqual(store.entries());

    // A deleted key with escapes in its JSON, and one set again after it changed, reach the worker as lines.
    store.delete(odd);
    store.update(KEY, { turns: 9 });
    await store.flush();
    const after = await readFileJson();
    expect(Object.keys(after.sessions)).toEqual([KEY, "agent:main:main"]);
    expect(after.sessions[KEY]?.turns).toBe(9);
  });

  it("each write of the mirror shows every session as it is now", async () => {
    const store = await open();
    store.ensure(KEY, group);
    store.ensure("agent:main:main", { ...untitled(group), chatType: "direct", conversationId: "+49" });
    await store.flush();
    store.update(KEY, { turns: 7 });
    await store.flush();
    const file = await readFileJson();
    expect(file.sessions[KEY]?.turns).toBe(7);
    expect(Object.values(file.sessions)).toEqual(store.entries());
  });

  it("writes in the background soon after a change, without a flush", async () => {
    const store = await open();
    store.ensure(KEY, group);
    for (let i = 1; i <= 50; i++) store.update(KEY, { turns: i });
    await waitFor(
      async () => {
        const text = await readFile(join(dir, "sessions.json"), "utf8").catch(() => "");
        return text !== "" && (JSON.parse(text) as SessionsFile).sessions[KEY]?.turns === 50;
      },
      { timeoutMs: 5000, message: "sessions.json with turns 50" },
    );
  });

  it("flush covers updates made while a write is running, and concurrent flushes all see their updates", async () => {
    const store = await open();
    store.ensure(KEY, group);
    const flushes: Promise<void>[] = [];
    for (let i = 1; i <= 20; i++) {
      store.update(KEY, { turns: i });
      flushes.push(store.flush());
      await Promise.resolve();
    }
    await Promise.all(flushes);
    expect((await readFileJson()).sessions[KEY]?.turns).toBe(20);
    expect((await readdir(dir)).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("keeps each session as its own row: a change writes that row, not the whole store", async () => {
    const store = await open();
    for (let i = 0; i < 50; i++) store.ensure(`${KEY}:${i}`, group);
    await store.flush();
    const stamp = () =>
      test.state.db.all<{ key: string; updated_at: number }>("SELECT key, updated_at FROM sessions ORDER BY key");
    const before = await stamp();
    store.update(`${KEY}:7`, { turns: 1 });
    await store.flush();
    const after = await stamp();
    const changed = after.filter((row, i) => row.updated_at !== before[i]?.updated_at).map((row) => row.key);
    expect(changed).toEqual([`${KEY}:7`]);
  });

  it("a turn commits its session change itself: takeChanges, preview and committed", async () => {
    const store = await open();
    store.ensure(KEY, group);
    expect(store.takeChanges(KEY)).toHaveLength(1);
    expect(store.takeChanges(KEY)).toEqual([]);
    const next = store.preview(KEY, { turns: 5 });
    expect(store.get(KEY)?.turns).toBe(0);
    store.committed(next);
    expect(store.get(KEY)?.turns).toBe(5);
  });

  it("skips an invalid entry found in the database, with a warning naming it", async () => {
    const good = (await open()).ensure(KEY, group);
    await opened[0]?.flush();
    await test.state.db.tx((sql) =>
      test.state.sessions.save(
        sql,
        [{ key: "agent:main:main", agentId: "main", entry: { ...good, key: "agent:main:main", turns: "many" } }],
        1,
      ),
    );
    const reported: string[] = [];
    const store = await open({ onWarning: (m) => reported.push(m) });
    expect(store.entries()).toEqual([good]);
    expect(store.warnings[0]).toMatch(/agent:main:main.*turns/);
    expect(reported).toEqual(store.warnings);
  });

  it("refresh reads a session again (another gateway changed it)", async () => {
    const store = await open();
    store.ensure(KEY, group);
    await store.flush();
    const other = await SessionStore.open(await test.reopen(), "main", dir);
    other.update(KEY, { turns: 9 });
    await other.flush();
    expect(store.get(KEY)?.turns).toBe(0);
    await store.refresh(KEY);
    expect(store.get(KEY)?.turns).toBe(9);
  });

  it("refresh keeps the entry it has when the row is what it committed, and reads a change of settings alone", async () => {
    const store = await open();
    const created = store.ensure(KEY, group);
    await store.flush();
    await store.refresh(KEY);
    expect(store.get(KEY)).toBe(created);
    // Another gateway changes a setting within the same millisecond: only the nested settings differ.
    const sameClock = { now: () => new Date(created.updatedAt) };
    const other = await SessionStore.open(await test.reopen(), "main", dir, sameClock);
    other.changeSettings(KEY, { verbose: true });
    await other.flush();
    await store.refresh(KEY);
    expect(store.get(KEY)).toEqual({ ...created, settings: { verbose: true } });
  });

  it("refreshAll reads every session again: ones another gateway created or changed, not one changed here and unwritten", async () => {
    const store = await open();
    store.ensure(KEY, group);
    await store.flush();
    const other = await SessionStore.open(await test.reopen(), "main", dir);
    other.update(KEY, { turns: 4 });
    other.ensure("agent:main:whatsapp:dm:+15550002", { ...group, conversationId: "+15550002", chatType: "direct" });
    await other.flush();
    expect(store.size).toBe(1);
    const all = await store.refreshAll();
    expect(all.map((entry) => entry.key).sort()).toEqual(["agent:main:whatsapp:dm:+15550002", KEY].sort());
    expect(store.get(KEY)?.turns).toBe(4);
    store.update(KEY, { turns: 5 });
    await store.refreshAll();
    expect(store.get(KEY)?.turns).toBe(5);
  });

  it("a mirror that cannot be written is reported; the database keeps the session", async () => {
    const reported: string[] = [];
    const store = await open({ onWarning: (message) => reported.push(message) });
    await mkdir(join(dir, "sessions.json", "blocker"), { recursive: true }); // sessions.json cannot be replaced
    store.ensure(KEY, group);
    await store.flush();
    expect(reported[0]).toContain("sessions.json");
    expect((await test.state.sessions.get(KEY))?.sessionId).toBe(store.get(KEY)?.sessionId);
    await rm(join(dir, "sessions.json"), { recursive: true });
    store.update(KEY, { turns: 1 });
    await store.flush();
    expect((await readFileJson()).sessions[KEY]?.turns).toBe(1);
  });
});
