import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { InboundEvent, InboundMessageEvent } from "@chorus/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type RunningChannel, startChannel } from "../context.js";
import { createMemoryChannel } from "./channel.js";
import { createMemoryPlatform, type MemoryPlatform } from "./platform.js";

const ANN = { id: "u-ann", name: "Ann Lee" };

let platform: MemoryPlatform;
let stateDir: string;
const running: RunningChannel[] = [];
const dirs: string[] = [];

beforeEach(async () => {
  platform = createMemoryPlatform();
  await platform.start();
  platform.addConversation({ id: "team", kind: "group", title: "Team", members: [ANN] });
  stateDir = await tempDir();
});

afterEach(async () => {
  for (const channel of running.splice(0)) await channel.stop();
  await platform.close();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "chorus-memory-test-"));
  dirs.push(dir);
  return dir;
}

async function start(dir: string): Promise<RunningChannel> {
  const channel = await startChannel(createMemoryChannel(), {
    config: { baseUrl: platform.url, token: platform.token, pollWaitMs: 1000, retries: 0 },
    stateDir: dir,
  });
  running.push(channel);
  return channel;
}

async function stop(channel: RunningChannel): Promise<void> {
  running.splice(running.indexOf(channel), 1);
  await channel.stop();
}

const say = (text: string) => platform.userSends({ conversationId: "team", senderId: ANN.id, text });
const texts = (events: InboundEvent[]) => events.map((e) => (e.type === "message" ? e.text : `reaction ${e.emoji}`));
const delivered = (channel: RunningChannel, id: string) =>
  channel.waitForEvent((e): e is InboundMessageEvent => e.type === "message" && e.ref.messageId === id);

describe("memory channel persistence", () => {
  it("does not deliver events again after a restart with the same state dir", async () => {
    const first = await start(stateDir);
    say("one");
    const two = say("two");
    await delivered(first, two.id);
    await stop(first);
    expect(await first.store.get("cursor")).toBe(platform.state.events.length);

    const three = say("three while the channel was down");
    const second = await start(stateDir);
    await delivered(second, three.id);
    // Events arrive in order: had "one" or "two" been delivered again, they would have come first.
    expect(texts(second.events)).toEqual(["three while the channel was down"]);
    expect(texts(first.events)).toEqual(["one", "two"]);
  });

  it("keeps the cursor past the bot's own echoes and reactions", async () => {
    const first = await start(stateDir);
    const question = say("question");
    const ref = (await delivered(first, question.id)).ref;
    const answer = await first.instance.send({ id: "team" }, { text: "answer" });
    await first.instance.react(ref, { op: "add", emoji: "👀" });
    platform.userReacts(answer.messageId, ANN.id, "👍");
    await first.waitForEvent((e) => e.type === "reaction" && e.actor.id === ANN.id);
    await stop(first);

    const later = say("later");
    const second = await start(stateDir);
    await delivered(second, later.id);
    expect(texts(second.events)).toEqual(["later"]);
    expect(texts(first.events)).toEqual(["question", "reaction 👍"]);
  });

  it("delivers the whole backlog to a fresh state dir", async () => {
    const first = await start(stateDir);
    say("one");
    const two = say("two");
    await delivered(first, two.id);
    await stop(first);
    const three = say("three");

    const fresh = await start(await tempDir());
    await delivered(fresh, three.id);
    expect(texts(fresh.events)).toEqual(["one", "two", "three"]);
    // The same ids as the first delivery, so the gateway can recognise redelivered events.
    expect(fresh.events.slice(0, 2).map((e) => e.eventId)).toEqual(first.events.map((e) => e.eventId));
  });

  it("starts from the beginning when the stored cursor is missing or broken", async () => {
    const old = say("old");
    const first = await start(stateDir);
    await delivered(first, old.id);
    await first.store.set("cursor", "not a number");
    await stop(first);
    const channel = await start(stateDir);
    await delivered(channel, old.id);
    expect(texts(channel.events)).toEqual(["old"]);
  });

  it("imports the cursor file an earlier version wrote, once, and keeps the file as .imported", async () => {
    say("one");
    say("two");
    const three = say("three");
    await writeFile(join(stateDir, "cursor.json"), JSON.stringify({ seq: 2 }));
    const channel = await start(stateDir);
    await delivered(channel, three.id);
    expect(texts(channel.events)).toEqual(["three"]);
    expect(JSON.parse(await readFile(join(stateDir, "cursor.json.imported"), "utf8"))).toEqual({ seq: 2 });
    expect(channel.logs.at("info").map((r) => r.message)).toContain("imported earlier channel state into the store");
  });

  it("sets aside a cursor file of the wrong shape with a warning and starts from the beginning", async () => {
    const old = say("old");
    await writeFile(join(stateDir, "cursor.json"), JSON.stringify({ seq: "not a number" }));
    const channel = await start(stateDir);
    await delivered(channel, old.id);
    expect(texts(channel.events)).toEqual(["old"]);
    expect(channel.logs.at("warn")[0]?.message).toContain("seq is not a number");
  });
});
