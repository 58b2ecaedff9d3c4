import { describe, expect, it } from "vitest";
import * as fixtures from "./fixtures/updates.js";
import { type InboundContext, normaliseUpdate } from "./inbound.js";

const who = {
  channel: "telegram",
  accountId: "default",
  botId: 123456789,
  username: "chorus_test_bot",
  name: "Chorus",
};
const ctx = (over: Partial<InboundContext> = {}): InboundContext => ({
  who,
  conversationId: (id) => id,
  sentByBot: () => false,
  ...over,
});

describe("normaliseUpdate (realistic Bot API payloads)", () => {
  it("a group mention: the bot by username (case-insensitive, UTF-16 offsets after an emoji), others listed", () => {
    const { events } = normaliseUpdate(fixtures.groupMention, ctx());
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
    const [event] = normaliseUpdate(fixtures.textMention, ctx()).events;
    expect(event).toMatchObject({
      type: "message",
      mentions: { bot: true, others: [] },
      sender: { id: "502", name: "Bob" },
    });
  });

  it("a reply to the bot's message says so, with the original text", () => {
    const [event] = normaliseUpdate(fixtures.replyToBot, ctx()).events;
    expect(event).toMatchObject({
      mentions: { bot: false, others: [] },
      replyTo: { messageId: "79", fromBot: true, senderId: "123456789", text: "Pasta at 7." },
    });
  });

  it("drops the bot's own messages", () => {
    expect(normaliseUpdate(fixtures.ownEcho, ctx()).events).toEqual([]);
  });

  it("a forum topic is its own conversation (threadId) and the topic root is not a reply", () => {
    const [event] = normaliseUpdate(fixtures.forumTopicMessage, ctx()).events;
    expect(event).toMatchObject({
      conversation: { id: "-1002000000002", kind: "group", title: "Dev", threadId: "12" },
      mentions: { bot: true },
      ref: { messageId: "15", threadId: "12" },
    });
    expect(event).not.toHaveProperty("replyTo");
  });

  it("a reaction change becomes one event per emoji: new minus old added, old minus new removed", () => {
    const events = normaliseUpdate(
      fixtures.reactionChanged,
      ctx({ sentByBot: (c, m) => c === "-1002000000001" && m === 79 }),
    ).events;
    expect(events.map((e) => e.type === "reaction" && [e.emoji, e.action, e.eventId])).toEqual([
      ["❤", "added", "900006:0"],
      ["🔥", "added", "900006:1"],
      ["👍", "removed", "900006:2"],
    ]);
    expect(events[0]).toMatchObject({
      actor: { id: "501", name: "Ann Lee" },
      target: { messageId: "79", fromBot: true },
    });
  });

  it("ignores anonymous reaction counts", () => {
    expect(normaliseUpdate(fixtures.reactionCount, ctx()).events).toEqual([]);
  });

  it("a direct message is kind direct, titled with the person's name", () => {
    const [event] = normaliseUpdate(fixtures.directMessage, ctx()).events;
    expect(event).toMatchObject({
      conversation: { id: "501", kind: "direct", title: "Ann Lee" },
      mentions: { bot: false },
    });
  });

  it("a migration is reported, not emitted; messages from the new chat keep the old conversation id", () => {
    expect(normaliseUpdate(fixtures.migrateTo, ctx())).toEqual({
      events: [],
      migration: { from: "-4000000001", to: "-1002000000003" },
    });
    const moved = {
      ...fixtures.groupMention,
      message: { ...fixtures.groupMention.message, chat: { id: -1002000000003, title: "Family", type: "supergroup" } },
    };
    const [event] = normaliseUpdate(
      moved as typeof fixtures.groupMention,
      ctx({ conversationId: (id) => (id === "-1002000000003" ? "-4000000001" : id) }),
    ).events;
    expect(event).toMatchObject({
      conversation: { id: "-4000000001" },
      ref: { conversationId: "-4000000001", data: { chatId: "-1002000000003" } },
    });
  });
});
