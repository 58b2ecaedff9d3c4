import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { MemoryStore } from "@chorus/channel-kit/state";
import { ChorusError, type JsonValue, silentLogger } from "@chorus/core";
import { type RunningChannel, startChannel, waitFor } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WebchatHub } from "./hub.js";
import { LEGACY_STATE_FILE } from "./legacy-state.js";
import { createWebchatPlugin } from "./plugin.js";
import { WebchatSite } from "./site.js";
import { tempDir } from "./support.test.util.js";

let dir: string;
let cleanup: () => Promise<void>;
const hubs: WebchatHub[] = [];
let running: RunningChannel | undefined;

/** A store that counts writes per key and fails the next `failures` writes. */
class WatchedStore extends MemoryStore {
  readonly writes = new Map<string, number>();
  failures = 0;

  override async set(key: string, value: JsonValue): Promise<void> {
    if (this.failures > 0) {
      this.failures--;
      throw new ChorusError("E_PLATFORM", "the database is away", { retryable: true });
    }
    this.writes.set(key, (this.writes.get(key) ?? 0) + 1);
    await super.set(key, value);
  }
}

/** Loads a hub from `store`, closed (pending writes flushed) after the test. */
async function load(store: MemoryStore, options: { historyLimit?: number; persistDelayMs?: number } = {}) {
  const hub = await WebchatHub.load({ store, logger: silentLogger, ...options });
  hubs.push(hub);
  return hub;
}

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir("state"));
});

afterEach(async () => {
  await running?.stop();
  running = undefined;
  for (const hub of hubs.splice(0)) await hub.close();
  await cleanup();
});

describe("the webchat hub in the channel's store", () => {
  it("a hub loaded from the same store has the rooms, people, messages and reactions", async () => {
    const store = new MemoryStore();
    const first = await load(store);
    const ada = first.identify("Ada");
    const bob = first.identify("Bob");
    first.join("lobby", ada.id);
    first.join("team", bob.id);
    const hello = first.post("lobby", ada.id, "hello @Chorus");
    const reply = first.post("lobby", "bot", "hi Ada", { replyTo: hello.id });
    first.react(hello.id, "bot", "👀", true);
    first.react(hello.id, "bot", "❤️", true);
    first.react(reply.id, ada.id, "🎉", true);
    const before = first.messagesIn("lobby");
    await first.close();

    const second = await load(store);
    expect(second.user(ada.id)).toEqual(ada);
    expect(second.rooms().map((r) => r.id)).toEqual(expect.arrayContaining(["lobby", "team", `dm:${ada.id}`]));
    expect(second.room("team")?.members.map((m) => m.name)).toEqual(["Chorus", "Bob"]);
    expect(second.messagesIn("lobby")).toEqual(before);
    expect(second.reactionsOf(reply.id)).toEqual([{ emoji: "🎉", users: [ada] }]);
    expect(second.botReactions(hello.id)).toEqual(["👀", "❤"]);
    expect(second.message(reply.id)?.replyTo?.id).toBe(hello.id);
    // The resumed identity keeps writing where it left off, after the messages it had.
    second.identify("Ada", ada.id);
    expect(second.post("lobby", ada.id, "back again").sender).toEqual(ada);
    await second.flush();
    const third = await load(store);
    expect(third.messagesIn("lobby").map((m) => m.text)).toEqual(["hello @Chorus", "hi Ada", "back again"]);
  });

  it("keeps one small entry per person, room, message and set of reactions", async () => {
    const store = new MemoryStore();
    const hub = await load(store);
    const ada = hub.identify("Ada");
    hub.join("lobby", ada.id);
    const hello = hub.post("lobby", ada.id, "hello");
    hub.react(hello.id, ada.id, "👍", true);
    await hub.flush();
    expect((await store.list("")).map((entry) => entry.key)).toEqual([
      "messages/lobby/000000000001",
      "reactions/lobby/000000000001",
      `rooms/dm:${ada.id}`,
      "rooms/lobby",
      `users/${ada.id}`,
    ]);
    expect(await store.get(`users/${ada.id}`)).toEqual({ name: "Ada" });
    expect(await store.get("reactions/lobby/000000000001")).toEqual([["👍", [ada.id]]]);
    hub.react(hello.id, ada.id, "👍", false);
    await hub.flush();
    expect(await store.get("reactions/lobby/000000000001")).toBeUndefined();
  });

  it("coalesces a burst of changes to one key into one write", async () => {
    const store = new WatchedStore();
    const hub = await load(store, { persistDelayMs: 10 });
    const ada = hub.identify("Ada");
    hub.join("lobby", ada.id);
    const message = hub.post("lobby", ada.id, "react to me");
    for (let n = 0; n < 100; n++) hub.react(message.id, ada.id, "👍", n % 2 === 0);
    for (let n = 0; n < 200; n++) hub.post("lobby", ada.id, `message ${n}`);
    await hub.flush();
    expect(store.writes.get("reactions/lobby/000000000001") ?? 0).toBeLessThanOrEqual(1);
    expect(store.writes.get("rooms/lobby")).toBe(1);
    expect((await store.list("messages/lobby/")).length).toBe(201);
  });

  it("writes on its own after the delay, without flush", async () => {
    const store = new MemoryStore();
    const hub = await load(store, { persistDelayMs: 5 });
    const ada = hub.identify("Ada");
    await waitFor(async () => (await store.get(`users/${ada.id}`)) !== undefined, {
      message: "the store to hold Ada",
    });
  });

  it("keeps a change the store failed to write and writes it with the next flush", async () => {
    const store = new WatchedStore();
    const hub = await load(store);
    store.failures = 1;
    const ada = hub.identify("Ada");
    await expect(hub.flush()).rejects.toThrow("the database is away");
    await hub.flush();
    expect(await store.get(`users/${ada.id}`)).toEqual({ name: "Ada" });
  });

  it("keeps at most historyLimit messages a room, in memory and in the store", async () => {
    const store = new MemoryStore();
    const first = await load(store);
    const ada = first.identify("Ada");
    first.join("lobby", ada.id);
    const sent = [0, 1, 2, 3, 4].map((n) => first.post("lobby", ada.id, `message ${n}`));
    first.react(sent[0]?.id ?? "", ada.id, "👍", true);
    await first.close();
    const second = await load(store, { historyLimit: 2 });
    expect(second.messagesIn("lobby").map((m) => m.text)).toEqual(["message 3", "message 4"]);
    await second.flush();
    expect((await store.list("messages/")).length).toBe(2);
    expect(await store.list("reactions/")).toEqual([]);
    second.post("lobby", ada.id, "message 5");
    await second.flush();
    expect((await store.list("messages/")).map((e) => (e.value as { text: string }).text)).toEqual([
      "message 4",
      "message 5",
    ]);
  });

  it("skips entries it cannot read and keeps the rest", async () => {
    const store = new MemoryStore();
    await store.set("users/u_ada0000001", { name: "Ada" });
    await store.set("users/u_broken0001", { name: 42 });
    await store.set("rooms/lobby", { members: ["u_ada0000001"] });
    await store.set("messages/lobby/000000000001", { id: "m_1", nonsense: true });
    await store.set("messages/lobby/000000000002", {
      id: "m_2",
      senderId: "u_ada0000001",
      senderName: "Ada",
      text: "still here",
      ts: 1,
      mentions: [],
    });
    const hub = await load(store);
    expect(hub.messagesIn("lobby").map((m) => m.text)).toEqual(["still here"]);
    expect(hub.user("u_broken0001")).toBeUndefined();
    expect(hub.room("lobby")?.members.map((m) => m.name)).toEqual(["Chorus", "Ada"]);
  });
});

describe("the webchat plugin's state across restarts", () => {
  const legacy = (ada: string) => ({
    version: 1,
    users: [{ id: ada, name: "Ada" }],
    rooms: [
      { id: "lobby", members: [ada], messages: [] },
      {
        id: "team",
        members: [ada],
        messages: [
          { id: "m_old1", senderId: ada, senderName: "Ada", text: "from before", ts: 1, mentions: [], reactions: [] },
          {
            id: "m_old2",
            senderId: "bot",
            senderName: "Chorus",
            text: "answer",
            ts: 2,
            replyTo: "m_old1",
            mentions: [ada],
            reactions: [["👍", [ada]]],
          },
        ],
      },
    ],
  });

  it("a restart keeps the rooms, people and messages (ctx.store)", async () => {
    const site = new WebchatSite();
    running = await startChannel(createWebchatPlugin(site), { config: { botName: "Chorus" }, stateDir: dir });
    const hub = site.hub as WebchatHub;
    const ada = hub.identify("Ada");
    hub.join("team", ada.id);
    const question = hub.post("team", ada.id, "@Chorus still there after a restart?");
    const answer = await running.instance.send({ id: "team" }, { text: "yes" });
    await running.restart();

    const again = site.hub as WebchatHub;
    expect(again).not.toBe(hub);
    expect(again.room("team")?.members.map((m) => m.name)).toEqual(["Chorus", "Ada"]);
    expect(again.messagesIn("team").map((m) => [m.sender.name, m.text])).toEqual([
      ["Ada", question.text],
      ["Chorus", "yes"],
    ]);
    await expect(running.instance.resolveMessageRef({ id: "team" }, answer.messageId)).resolves.toMatchObject({
      messageId: answer.messageId,
      fromBot: true,
    });
    // Nothing of it is in a file of its own: the store has it.
    expect(await readdir(dir)).not.toContain(LEGACY_STATE_FILE);
    expect((await running.store.list("messages/team/")).length).toBe(2);
  });

  it("imports an older version's webchat.json once, then leaves it alone", async () => {
    const ada = "u_ada_from_before";
    await writeFile(join(dir, LEGACY_STATE_FILE), JSON.stringify(legacy(ada)));
    const site = new WebchatSite();
    running = await startChannel(createWebchatPlugin(site), { config: {}, stateDir: dir });
    const hub = site.hub as WebchatHub;
    expect(hub.user(ada)).toEqual({ id: ada, name: "Ada" });
    expect(hub.roomsFor(ada).map((room) => room.id)).toEqual(["lobby", "team"]);
    expect(hub.messagesIn("team").map((m) => m.text)).toEqual(["from before", "answer"]);
    expect(hub.message("m_old2")?.replyTo?.id).toBe("m_old1");
    expect(hub.reactionsOf("m_old2")).toEqual([{ emoji: "👍", users: [{ id: ada, name: "Ada" }] }]);
    expect(await readdir(dir)).toContain(`${LEGACY_STATE_FILE}.imported`);
    expect(await readdir(dir)).not.toContain(LEGACY_STATE_FILE);

    // What happens after the import is kept; the file is not read again.
    hub.post("team", ada, "after the import");
    hub.react("m_old2", ada, "👍", false);
    await running.restart();
    const again = site.hub as WebchatHub;
    expect(again.messagesIn("team").map((m) => m.text)).toEqual(["from before", "answer", "after the import"]);
    expect(again.reactionsOf("m_old2")).toEqual([]);
    expect((await readdir(dir)).filter((name) => name.startsWith(LEGACY_STATE_FILE))).toEqual([
      `${LEGACY_STATE_FILE}.imported`,
    ]);
  });

  it("sets aside a webchat.json it cannot read and starts empty", async () => {
    await writeFile(join(dir, LEGACY_STATE_FILE), '{"version":2}');
    const site = new WebchatSite();
    running = await startChannel(createWebchatPlugin(site), { config: {}, stateDir: dir });
    expect(site.hub?.rooms().map((r) => r.id)).toEqual(["lobby"]);
    const files = await readdir(dir);
    expect(files.some((f) => f.startsWith(`${LEGACY_STATE_FILE}.corrupt-`))).toBe(true);
    expect(running.logs.at("warn", true).some((line) => line.message.includes("could not import"))).toBe(true);
  });
});
