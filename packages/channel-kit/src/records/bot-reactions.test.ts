import { describe, expect, it } from "vitest";
import { MemoryStore } from "../state/memory-store.js";
import { BotReactionRecord } from "./bot-reactions.js";

describe("BotReactionRecord", () => {
  const target = { conversationId: "chat/1", messageId: "m:9" };

  it("keeps what the bot holds per message under one key per message", async () => {
    const store = new MemoryStore();
    const record = new BotReactionRecord(store);
    expect(await record.held(target)).toEqual([]);
    await record.hold(target, ["👍"]);
    expect(await record.held(target)).toEqual(["👍"]);
    expect((await store.list("botReactions/")).map((e) => e.key)).toEqual(["botReactions/chat%2F1/m%3A9"]);
    expect(await record.change(target, (held) => [...held, "❤"])).toEqual(["👍", "❤"]);
    expect(await record.change(target, () => [])).toEqual([]);
    expect(await store.list("botReactions/")).toEqual([]);
  });

  it("forgets a message's record after its TTL", async () => {
    let now = 0;
    const record = new BotReactionRecord(new MemoryStore(() => now), 1_000);
    await record.hold(target, ["👍"]);
    now = 1_001;
    expect(await record.held(target)).toEqual([]);
  });

  it("runs a message's calls one after another, also across records on one store", async () => {
    const store = new MemoryStore();
    const first = new BotReactionRecord(store);
    const second = new BotReactionRecord(store);
    // A read-modify-write with a platform call in between, as a channel's react does.
    const addAfterACall = (record: BotReactionRecord, emoji: string) =>
      record.exclusive(target, async () => {
        const held = await record.held(target);
        await new Promise((resolve) => setImmediate(resolve));
        await record.hold(target, [...held, emoji]);
      });
    await Promise.all([addAfterACall(first, "👍"), addAfterACall(second, "❤"), addAfterACall(first, "😮")]);
    expect(await first.held(target)).toEqual(["👍", "❤", "😮"]);
  });

  it("lets other messages go on while one message's call runs, and a failure does not stop the next", async () => {
    const record = new BotReactionRecord(new MemoryStore());
    const other = { conversationId: "chat/1", messageId: "m:10" };
    let release: () => void = () => undefined;
    const blocked = record.exclusive(target, () => new Promise<void>((resolve) => (release = resolve)));
    await record.exclusive(other, () => record.hold(other, ["👍"]));
    expect(await record.held(other)).toEqual(["👍"]);
    const failing = record.exclusive(target, async () => {
      throw new Error("platform refused");
    });
    const after = record.exclusive(target, () => record.hold(target, ["❤"]));
    release();
    await blocked;
    await expect(failing).rejects.toThrow("platform refused");
    await after;
    expect(await record.held(target)).toEqual(["❤"]);
  });
});
