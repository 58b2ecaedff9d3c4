import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as docs from "./fixtures/bots-docs.js";
import { type HookHarness, startHookHarness } from "./hook-harness.test-util.js";

/** Talk's own samples (spreed `docs/bots.md`), posted to the running channel's webhook, signed as Talk signs. */
let harness: HookHarness;

beforeEach(async () => {
  harness = await startHookHarness();
});

afterEach(() => harness.close());

describe("Nextcloud Talk's documented webhook samples", () => {
  it("the sample chat message (no talkParticipantType, an @all mention) is a group message", async () => {
    expect(await harness.deliver(docs.sampleChatMessage)).toBe(200);
    expect(harness.running.events).toEqual([
      {
        type: "message",
        eventId: "create:n3xtc10ud:1567",
        conversation: { id: "n3xtc10ud", kind: "group", title: "world" },
        sender: { id: "users/ada-lovelace", name: "Ada Lovelace" },
        text: "hi @world !",
        // @all (`call`) names nobody in particular.
        mentions: { bot: false, others: [] },
        ref: {
          channel: "nextcloud",
          accountId: "default",
          conversationId: "n3xtc10ud",
          messageId: "1567",
          fromBot: false,
        },
        timestamp: expect.any(Number),
      },
    ]);
    expect(harness.running.logs.at("warn", true)).toEqual([]);
  });

  it("the reaction samples are a reaction added and taken back", async () => {
    expect(await harness.deliver(docs.sampleReactionAdded)).toBe(200);
    expect(await harness.deliver(docs.sampleReactionRemoved)).toBe(200);
    const target = { conversationId: "n3xtc10ud", messageId: "1567" };
    const actor = { id: "users/ada-lovelace", name: "Ada Lovelace" };
    expect(harness.running.events).toEqual([
      expect.objectContaining({
        type: "reaction",
        target: expect.objectContaining(target),
        emoji: "😆",
        action: "added",
        actor,
      }),
      expect.objectContaining({
        type: "reaction",
        target: expect.objectContaining(target),
        emoji: "😆",
        action: "removed",
        actor,
      }),
    ]);
    expect(harness.running.logs.at("warn", true)).toEqual([]);
  });

  it("the Join and Leave samples are read and give no event", async () => {
    expect(await harness.deliver(docs.sampleJoin)).toBe(200);
    expect(await harness.deliver(docs.sampleLeave)).toBe(200);
    expect(harness.running.events).toEqual([]);
    expect(harness.running.logs.at("warn", true)).toEqual([]);
  });
});
