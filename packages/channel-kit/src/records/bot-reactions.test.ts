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
});
