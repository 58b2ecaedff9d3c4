import type { InboundEvent, InboundMessageEvent, InboundReactionEvent, Participant } from "@chorus/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type RunningChannel, startChannel } from "../context.js";
import { createMemoryChannel } from "./channel.js";
import { createMemoryPlatform, type MemoryPlatform } from "./platform.js";
import type { WireConversation, WireUser } from "./wire.js";

// Fixtures: the people and conversations of a small family chat, as the platform holds them.
const ALICE: WireUser = { id: "u-alice", name: "Alice Martin", phone: "+4915123456789" };
const BOB: WireUser = { id: "u-bob", name: "Bob Martin", phone: "+4915198765432" };
const CAROL: WireUser = { id: "u-carol", name: "Carol" };
const BOT_PARTICIPANT: Participant = { id: "bot", name: "Chorus", isBot: true };

const FAMILY: WireConversation = { id: "g-family", kind: "group", title: "Family 🏡", members: [ALICE, BOB, CAROL] };
const DM_ALICE: WireConversation = { id: "d-alice", kind: "direct", members: [ALICE] };

const ALICE_PARTICIPANT: Participant = { id: ALICE.id, name: ALICE.name, e164: "+4915123456789" };
const FAMILY_MEMBERS: Participant[] = [
  ALICE_PARTICIPANT,
  { id: BOB.id, name: BOB.name, e164: "+4915198765432" },
  { id: CAROL.id, name: CAROL.name },
  BOT_PARTICIPANT,
];

let platform: MemoryPlatform;
let channel: RunningChannel;

beforeEach(async () => {
  platform = createMemoryPlatform();
  await platform.start();
  platform.addConversation(FAMILY);
  platform.addConversation(DM_ALICE);
  channel = await startChannel(createMemoryChannel(), {
    config: { baseUrl: platform.url, token: platform.token, pollWaitMs: 1000, retries: 0 },
  });
});

afterEach(async () => {
  await channel.stop();
  await platform.close();
});

const isMessage =
  (id: string) =>
  (e: InboundEvent): e is InboundMessageEvent =>
    e.type === "message" && e.ref.messageId === id;

/** The message event of platform message `id`, once the channel emitted it. */
const messageEvent = (id: string) => channel.waitForEvent(isMessage(id));

/** Whatever the channel emitted for platform message `id` (normally nothing or one event). */
const emittedFor = (id: string) =>
  channel.events.filter((e) => (e.type === "message" ? e.ref.messageId : e.target.messageId) === id);

describe("memory channel inbound: messages", () => {
  it("normalises a group message from a person", async () => {
    const sent = platform.userSends({ conversationId: FAMILY.id, senderId: ALICE.id, text: "Dinner at 7 tonight?" });
    const event = await messageEvent(sent.id);
    expect(event).toEqual({
      type: "message",
      eventId: platform.state.events.find((e) => e.type === "message" && e.message.id === sent.id)?.id,
      conversation: { id: FAMILY.id, kind: "group", title: "Family 🏡", members: FAMILY_MEMBERS },
      sender: ALICE_PARTICIPANT,
      text: "Dinner at 7 tonight?",
      mentions: { bot: false, others: [] },
      ref: { channel: "memory", accountId: "default", conversationId: FAMILY.id, messageId: sent.id, fromBot: false },
      timestamp: sent.ts,
    });
    expect(event).not.toHaveProperty("replyTo");
  });

  it("leaves out the phone number of a person who has none", async () => {
    const sent = platform.userSends({ conversationId: FAMILY.id, senderId: CAROL.id, text: "I'll bring dessert" });
    const event = await messageEvent(sent.id);
    expect(event.sender).toEqual({ id: CAROL.id, name: "Carol" });
  });

  it("states an explicit mention of the bot", async () => {
    const sent = platform.userSends({
      conversationId: FAMILY.id,
      senderId: ALICE.id,
      text: "@Chorus what's the weather tomorrow?",
      mentions: ["bot"],
    });
    expect((await messageEvent(sent.id)).mentions).toEqual({ bot: true, others: [] });
  });

  it("lists mentions of others without claiming the bot was mentioned", async () => {
    const sent = platform.userSends({
      conversationId: FAMILY.id,
      senderId: ALICE.id,
      text: "@Bob @Carol can you pick up Grandma?",
      mentions: [BOB.id, CAROL.id],
    });
    expect((await messageEvent(sent.id)).mentions).toEqual({ bot: false, others: [BOB.id, CAROL.id] });
  });

  it("separates the bot from the others when both are mentioned", async () => {
    const sent = platform.userSends({
      conversationId: FAMILY.id,
      senderId: BOB.id,
      text: "@Chorus remind @Alice about the keys",
      mentions: ["bot", ALICE.id],
    });
    expect((await messageEvent(sent.id)).mentions).toEqual({ bot: true, others: [ALICE.id] });
  });

  it("does not treat the bot's name in the text as a mention", async () => {
    const sent = platform.userSends({ conversationId: FAMILY.id, senderId: BOB.id, text: "Chorus is a funny name" });
    expect((await messageEvent(sent.id)).mentions).toEqual({ bot: false, others: [] });
  });

  it("marks a reply to the bot's own message", async () => {
    const botRef = await channel.instance.send({ id: FAMILY.id }, { text: "It will rain tomorrow." });
    const reply = platform.userSends({
      conversationId: FAMILY.id,
      senderId: ALICE.id,
      text: "Thanks! Umbrellas then",
      replyToId: botRef.messageId,
    });
    const event = await messageEvent(reply.id);
    expect(event.replyTo).toEqual({ messageId: botRef.messageId, fromBot: true, senderId: "bot" });
    expect(event.mentions.bot).toBe(false);
  });

  it("marks a reply to someone else's message as not the bot's", async () => {
    const original = platform.userSends({ conversationId: FAMILY.id, senderId: BOB.id, text: "Who has the car?" });
    const reply = platform.userSends({
      conversationId: FAMILY.id,
      senderId: ALICE.id,
      text: "I do",
      replyToId: original.id,
    });
    expect((await messageEvent(reply.id)).replyTo).toEqual({
      messageId: original.id,
      fromBot: false,
      senderId: BOB.id,
    });
  });

  it("drops the bot's own messages (echoes)", async () => {
    const botRef = await channel.instance.send({ id: FAMILY.id }, { text: "Good morning everyone" });
    const after = platform.userSends({ conversationId: FAMILY.id, senderId: BOB.id, text: "Morning!" });
    await messageEvent(after.id);
    // Events arrive in platform order: the echo came before Bob's message and was dropped.
    expect(platform.messagesIn(FAMILY.id).map((m) => m.id)).toEqual([botRef.messageId, after.id]);
    expect(emittedFor(botRef.messageId)).toEqual([]);
    expect(channel.events.filter((e) => e.type === "message")).toHaveLength(1);
  });

  it("normalises a direct conversation", async () => {
    const sent = platform.userSends({ conversationId: DM_ALICE.id, senderId: ALICE.id, text: "hey, quick question" });
    const event = await messageEvent(sent.id);
    expect(event.conversation).toEqual({
      id: DM_ALICE.id,
      kind: "direct",
      members: [ALICE_PARTICIPANT, BOT_PARTICIPANT],
    });
    expect(event.conversation).not.toHaveProperty("title");
    expect(event.ref.conversationId).toBe(DM_ALICE.id);
  });

  it("carries the thread id into the conversation and the ref", async () => {
    const sent = platform.userSends({
      conversationId: FAMILY.id,
      senderId: BOB.id,
      text: "Holiday plans in this thread",
      threadId: "t-holiday",
    });
    const event = await messageEvent(sent.id);
    expect(event.conversation.threadId).toBe("t-holiday");
    expect(event.ref.threadId).toBe("t-holiday");
    expect(event.conversation.id).toBe(FAMILY.id);
  });

  it("emits messages in the order they were written", async () => {
    const texts = ["one", "two", "three", "four"];
    const sent = texts.map((text) => platform.userSends({ conversationId: FAMILY.id, senderId: CAROL.id, text }));
    await messageEvent(sent.at(-1)?.id ?? "");
    expect(channel.events.map((e) => (e.type === "message" ? e.text : undefined))).toEqual(texts);
  });
});

describe("memory channel inbound: reactions", () => {
  const isReaction =
    (messageId: string, action: "added" | "removed") =>
    (e: InboundEvent): e is InboundReactionEvent =>
      e.type === "reaction" && e.target.messageId === messageId && e.action === action;

  it("turns a person's reaction on the bot's message into added and removed events", async () => {
    const botRef = await channel.instance.send({ id: FAMILY.id }, { text: "Pizza or pasta?" });
    platform.userReacts(botRef.messageId, ALICE.id, "🍕");
    const added = await channel.waitForEvent(isReaction(botRef.messageId, "added"));
    expect(added).toEqual({
      type: "reaction",
      eventId: expect.stringMatching(/^evt-\d+$/),
      conversation: { id: FAMILY.id, kind: "group", title: "Family 🏡", members: FAMILY_MEMBERS },
      target: botRef,
      emoji: "🍕",
      action: "added",
      actor: ALICE_PARTICIPANT,
      timestamp: expect.any(Number),
    });
    expect(added.target.fromBot).toBe(true);

    platform.userUnreacts(botRef.messageId, ALICE.id, "🍕");
    const removed = await channel.waitForEvent(isReaction(botRef.messageId, "removed"));
    expect(removed).toMatchObject({ emoji: "🍕", action: "removed", actor: ALICE_PARTICIPANT, target: botRef });
    expect(removed.eventId).not.toBe(added.eventId);
  });

  it("reports a reaction on a person's message with that message as target", async () => {
    const original = platform.userSends({ conversationId: FAMILY.id, senderId: BOB.id, text: "Passed my exam!" });
    platform.userReacts(original.id, CAROL.id, "🎉");
    const event = await channel.waitForEvent(isReaction(original.id, "added"));
    expect(event.target).toEqual({
      channel: "memory",
      accountId: "default",
      conversationId: FAMILY.id,
      messageId: original.id,
      fromBot: false,
    });
    expect(event.actor).toEqual({ id: CAROL.id, name: "Carol" });
  });

  it("keeps the thread of the reacted message", async () => {
    const original = platform.userSends({
      conversationId: FAMILY.id,
      senderId: BOB.id,
      text: "Flights booked",
      threadId: "t-holiday",
    });
    platform.userReacts(original.id, ALICE.id, "✈️");
    const event = await channel.waitForEvent(isReaction(original.id, "added"));
    expect(event.conversation.threadId).toBe("t-holiday");
    expect(event.target.threadId).toBe("t-holiday");
    expect(event.emoji).toBe("✈"); // the platform stores emoji without variation selectors
  });

  it("drops the bot's own reactions", async () => {
    const original = platform.userSends({ conversationId: FAMILY.id, senderId: BOB.id, text: "Done with the dishes" });
    const ref = (await messageEvent(original.id)).ref;
    await channel.instance.react(ref, { op: "add", emoji: "👍" });
    expect(platform.botReactions(original.id)).toEqual(["👍"]);
    platform.userReacts(original.id, ALICE.id, "❤");
    const alice = await channel.waitForEvent(isReaction(original.id, "added"));
    // Alice's reaction came after the bot's: the bot's was seen first and dropped.
    expect(alice.actor.id).toBe(ALICE.id);
    const reactions = emittedFor(original.id).filter((e) => e.type === "reaction");
    expect(reactions).toHaveLength(1);
    expect(reactions.some((e) => e.type === "reaction" && e.actor.id === "bot")).toBe(false);
  });
});
