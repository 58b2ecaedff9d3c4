import { describe, expect, it } from "vitest";
import * as fixtures from "./fixtures/updates.js";
import { type InboundContext, normalizeUpdate } from "./inbound.js";
import { readUpdate } from "./wire.js";

const ctx = (over: Partial<InboundContext> = {}): InboundContext => ({
  scope: { channel: "telegram", accountId: "default", botId: "123456789" },
  bot: { id: 123456789, username: "chorus_test_bot", first_name: "Chorus" },
  conversationId: (id) => id,
  ...over,
});

/** Reads a fixture like the sink does, then normalizes it. */
const normalize = (payload: unknown, context = ctx()) => {
  const read = readUpdate(payload);
  if (!("update" in read)) throw new Error(`fixture does not read: ${read.problem}`);
  return normalizeUpdate(read.update, context);
};

describe("normalizeUpdate (realistic Bot API payloads)", () => {
  it("a group mention: the bot by username (case-insensitive, UTF-16 offsets after an emoji), others listed", () => {
    const { events } = normalize(fixtures.groupMention, ctx());
    expect(events).toEqual([
      {
        type: "message",
        eventId: "900001",
        conversation: { id: "-1002000000001", kind: "group", title: "Family" },
        sender: { id: "501", name: "Ann Lee" },
        text: "🎉 @Chorus_Test_Bot what's for dinner? cc @bob_b",
        mentions: { bot: true, others: ["@bob_b"] },
        ref: {
          channel: "telegram",
          accountId: "default",
          conversationId: "-1002000000001",
          messageId: "77",
          fromBot: false,
          data: { chatId: "-1002000000001" },
        },
        timestamp: 1767225600000,
      },
    ]);
  });

  it("a text_mention carrying the bot's id is a mention", () => {
    const [event] = normalize(fixtures.textMention, ctx()).events;
    expect(event).toMatchObject({
      type: "message",
      mentions: { bot: true, others: [] },
      sender: { id: "502", name: "Bob" },
    });
  });

  it("a reply to the bot's message says so, with the original text", () => {
    const [event] = normalize(fixtures.replyToBot, ctx()).events;
    expect(event).toMatchObject({
      mentions: { bot: false, others: [] },
      replyTo: { messageId: "79", fromBot: true, senderId: "123456789", text: "Pasta at 7." },
    });
  });

  it("drops the bot's own messages", () => {
    expect(normalize(fixtures.ownEcho, ctx()).events).toEqual([]);
  });

  it("a forum topic is its own conversation (threadId) and the topic root is not a reply", () => {
    const [event] = normalize(fixtures.forumTopicMessage, ctx()).events;
    expect(event).toMatchObject({
      conversation: { id: "-1002000000002", kind: "group", title: "Dev", threadId: "12" },
      mentions: { bot: true },
      ref: { messageId: "15", threadId: "12" },
    });
    expect(event).not.toHaveProperty("replyTo");
  });

  it("a reaction change becomes one event per emoji: new minus old added, old minus new removed", () => {
    const events = normalize(fixtures.reactionChanged).events;
    expect(events.map((e) => e.type === "reaction" && [e.emoji, e.action, e.eventId])).toEqual([
      ["❤", "added", "900006:0"],
      ["🔥", "added", "900006:1"],
      ["👍", "removed", "900006:2"],
    ]);
    // Telegram does not say who wrote the target: the gateway's message index knows (fromBot).
    expect(events[0]).toMatchObject({
      actor: { id: "501", name: "Ann Lee" },
      target: {
        channel: "telegram",
        conversationId: "-1002000000001",
        messageId: "79",
        data: { chatId: "-1002000000001" },
      },
    });
    expect(events[0]?.type === "reaction" && events[0].target).not.toHaveProperty("fromBot");
  });

  it("the same update read twice gives the same event ids (the gateway drops the repeat)", () => {
    const ids = (update: unknown) => normalize(update).events.map((e) => e.eventId);
    expect(ids(structuredClone(fixtures.reactionChanged))).toEqual(ids(fixtures.reactionChanged));
    expect(ids(structuredClone(fixtures.groupMention))).toEqual(["900001"]);
  });

  it("an anonymous admin speaks as the group (sender_chat), not as @GroupAnonymousBot", () => {
    const [event] = normalize(fixtures.anonymousAdmin).events;
    expect(event).toMatchObject({
      sender: { id: "-1002000000001", name: "Family" },
      mentions: { bot: true },
      ref: { messageId: "91", fromBot: false },
    });
  });

  it("an anonymous reaction (actor_chat) with a custom emoji is attributed to the chat, by emoji id", () => {
    const [event] = normalize(fixtures.anonymousReaction).events;
    expect(event).toMatchObject({
      type: "reaction",
      emoji: "5368324170671202286",
      action: "added",
      actor: { id: "-1002000000001", name: "Family" },
    });
  });

  it("ignores anonymous reaction counts", () => {
    expect(normalize(fixtures.reactionCount, ctx()).events).toEqual([]);
  });

  it("a direct message is kind direct, titled with the person's name", () => {
    const [event] = normalize(fixtures.directMessage, ctx()).events;
    expect(event).toMatchObject({
      conversation: { id: "501", kind: "direct", title: "Ann Lee" },
      mentions: { bot: false },
    });
  });

  it("a migration is reported, not emitted; messages from the new chat keep the old conversation id", () => {
    expect(normalize(fixtures.migrateTo, ctx())).toEqual({
      events: [],
      migration: { from: "-4000000001", to: "-1002000000003" },
    });
    const moved = {
      ...fixtures.groupMention,
      message: { ...fixtures.groupMention.message, chat: { id: -1002000000003, title: "Family", type: "supergroup" } },
    };
    const [event] = normalize(
      moved as typeof fixtures.groupMention,
      ctx({ conversationId: (id) => (id === "-1002000000003" ? "-4000000001" : id) }),
    ).events;
    expect(event).toMatchObject({
      conversation: { id: "-4000000001" },
      ref: { conversationId: "-4000000001", data: { chatId: "-1002000000003" } },
    });
  });
});

describe("readUpdate (what the plugin cannot read is named, never dropped silently)", () => {
  it("reads every realistic fixture", () => {
    for (const [name, fixture] of Object.entries(fixtures)) {
      if (["messageWithoutChat", "reactionWithStringChatId", "notAnUpdate"].includes(name)) continue;
      expect(readUpdate(fixture), name).toHaveProperty("update");
    }
  });

  it("a message without its chat names the missing field", () => {
    expect(readUpdate(fixtures.messageWithoutChat)).toEqual({
      updateId: 900090,
      problem: expect.stringMatching(/^message\.chat: .*expected object, received undefined/),
    });
  });

  it("a chat id that is a string is named with its path", () => {
    expect(readUpdate(fixtures.reactionWithStringChatId)).toEqual({
      updateId: 900091,
      problem: expect.stringMatching(/^message_reaction\.chat\.id: .*expected number, received string/),
    });
  });

  it("a payload without update_id is not an update", () => {
    expect(readUpdate(fixtures.notAnUpdate)).toEqual({
      problem: expect.stringMatching(/^update_id: /),
    });
    expect(readUpdate("garbage")).toEqual({ problem: expect.stringMatching(/^the update: .*expected object/) });
  });
});
