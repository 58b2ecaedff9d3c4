import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { waitFor } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WebchatHub } from "./hub.js";
import { STATE_FILE } from "./state.js";
import { tempDir } from "./support.test.util.js";

let dir: string;
let cleanup: () => Promise<void>;
const hubs: WebchatHub[] = [];

/** Opens a hub that is closed (pending writes flushed) before the directory is removed. */
async function open(options: Parameters<typeof WebchatHub.open>[0] = {}): Promise<WebchatHub> {
  const hub = await WebchatHub.open({ stateDir: dir, ...options });
  hubs.push(hub);
  return hub;
}

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir("state"));
});

afterEach(async () => {
  for (const hub of hubs.splice(0)) await hub.close();
  await cleanup();
});

describe("webchat persistence", () => {
  it("a new hub on the same directory has the rooms, people, messages and reactions", async () => {
    const first = await open();
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

    const second = await open();
    expect(second.user(ada.id)).toEqual(ada);
    expect(second.rooms().map((r) => r.id)).toEqual(expect.arrayContaining(["lobby", "team", `dm:${ada.id}`]));
    expect(second.room("team")?.members.map((m) => m.name)).toEqual(["Chorus", "Bob"]);
    expect(second.messagesIn("lobby")).toEqual(before);
    expect(second.reactionsOf(reply.id)).toEqual([{ emoji: "🎉", users: [ada] }]);
    expect(second.botReactions(hello.id)).toEqual(["👀", "❤"]);
    expect(second.message(reply.id)?.replyTo?.id).toBe(hello.id);
    // The resumed identity keeps writing where it left off.
    second.identify("Ada", ada.id);
    expect(second.post("lobby", ada.id, "back again").sender).toEqual(ada);
  });

  it("coalesces a burst of changes into a consistent file and leaves no temp files", async () => {
    const hub = await open({ persistDelayMs: 10 });
    const ada = hub.identify("Ada");
    hub.join("lobby", ada.id);
    for (let n = 0; n < 200; n++) hub.post("lobby", ada.id, `message ${n}`);
    await hub.flush();
    const stored = JSON.parse(await readFile(join(dir, STATE_FILE), "utf8"));
    const lobby = stored.rooms.find((room: { id: string }) => room.id === "lobby");
    expect(lobby.messages).toHaveLength(200);
    expect(lobby.messages.at(-1).text).toBe("message 199");
    expect(await readdir(dir)).toEqual([STATE_FILE]);
  });

  it("writes on its own after the delay, without flush", async () => {
    const hub = await open({ persistDelayMs: 5 });
    const ada = hub.identify("Ada");
    await waitFor(
      async () => {
        const text = await readFile(join(dir, STATE_FILE), "utf8").catch(() => "");
        return text.includes(ada.id);
      },
      { message: "the state file to name Ada" },
    );
  });

  it("moves a corrupt file aside and starts empty", async () => {
    await writeFile(join(dir, STATE_FILE), '{"version":2}');
    const hub = await open();
    expect(hub.rooms().map((r) => r.id)).toEqual(["lobby"]);
    const files = await readdir(dir);
    expect(files.some((f) => f.startsWith(`${STATE_FILE}.corrupt-`))).toBe(true);
    expect(files).not.toContain(STATE_FILE);
  });

  it("keeps at most historyLimit messages of a room when loading", async () => {
    const first = await open();
    const ada = first.identify("Ada");
    first.join("lobby", ada.id);
    for (let n = 0; n < 5; n++) first.post("lobby", ada.id, `message ${n}`);
    await first.close();
    const second = await open({ historyLimit: 2 });
    expect(second.messagesIn("lobby").map((m) => m.text)).toEqual(["message 3", "message 4"]);
  });
});
