import type { InboundEvent, InboundMessageEvent, InboundReactionEvent } from "@chorus/core";
import { EscapeWatch, eventually, type RunningChannel, startChannel } from "@chorus/testkit";
import { SnowflakeUtil } from "discord.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { exampleMessage } from "./fixtures/api-docs.js";
import {
  BOT_ID,
  botMessage,
  customReactionAdd,
  directMessage,
  directReactionAdd,
  everyone,
  groupMention,
  numericReactionAdd,
  reactionAdd,
  reactionRemove,
  replyToBot,
  webhookMessage,
} from "./fixtures/gateway.js";
import { discordChannel } from "./index.js";
import { ANN, BOB, FAST, startFakeDiscord } from "./test-support.test-util.js";
import type { FakeDiscord } from "./testing/index.js";

let fake: FakeDiscord;
let channel: RunningChannel;

beforeEach(async () => {
  fake = await startFakeDiscord();
  fake.addMember("100", ANN, [], "Annie");
  fake.addDm("400", ANN);
  channel = await startChannel(discordChannel, { config: fake.config(FAST) });
});
afterEach(async () => {
  await channel.stop();
  await fake.close();
});

const message =
  (id: string) =>
  (e: InboundEvent): e is InboundMessageEvent =>
    e.type === "message" && e.ref.messageId === id;
const reactions = () => channel.events.filter((e): e is InboundReactionEvent => e.type === "reaction");
/** Someone writes after the dispatch under test: once that arrives, the one before it was handled. */
const afterwards = async () => {
  const marker = fake.userSends({ channelId: "200", author: BOB, content: "marker" });
  await channel.waitForEvent(message(marker.id));
};

describe("Discord inbound, from the payloads Discord documents", () => {
  it("a group mention: the nick of the member, the mention facts, resolved markup", async () => {
    fake.dispatch("MESSAGE_CREATE", groupMention);
    expect(await channel.waitForEvent(message(groupMention.id))).toEqual({
      type: "message",
      eventId: `message:${groupMention.id}`,
      conversation: { id: "200", kind: "group", title: "#general (Team)" },
      sender: { id: ANN.id, name: "Annie", isBot: false },
      text: "@Chorus can you ask @Bob?",
      mentions: { bot: true, others: [BOB.id] },
      ref: {
        channel: "discord",
        accountId: "default",
        conversationId: "200",
        messageId: groupMention.id,
        fromBot: false,
        data: { channelId: "200" },
      },
      timestamp: SnowflakeUtil.timestampFrom(groupMention.id),
    });
  });

  it("@everyone is not a mention of the bot; a DM (no guild, no member) is a direct conversation", async () => {
    fake.dispatch("MESSAGE_CREATE", everyone);
    fake.dispatch("MESSAGE_CREATE", directMessage);
    expect((await channel.waitForEvent(message(everyone.id))).mentions).toEqual({ bot: false, others: [] });
    const dm = await channel.waitForEvent(message(directMessage.id));
    expect(dm.conversation).toEqual({ id: "400", kind: "direct" });
    expect(dm.sender).toEqual({ id: ANN.id, name: "Ann", isBot: false });
  });

  it("a reply to the bot (type 19 with referenced_message) is a mention with replyTo.fromBot", async () => {
    fake.dispatch("MESSAGE_CREATE", replyToBot);
    const event = await channel.waitForEvent(message(replyToBot.id));
    expect(event.mentions.bot).toBe(true);
    expect(event.replyTo).toEqual({
      messageId: botMessage.id,
      fromBot: true,
      text: botMessage.content,
      senderId: BOT_ID,
    });
  });

  it("a webhook's message (no member) comes from the webhook, as a bot", async () => {
    fake.dispatch("MESSAGE_CREATE", webhookMessage);
    const event = await channel.waitForEvent(message(webhookMessage.id));
    expect(event.sender).toEqual({ id: webhookMessage.author.id, name: "Deploys", isBot: true });
  });

  it("reactions on an uncached message: message_author_id tells fromBot; remove, custom emoji and DMs too", async () => {
    // discord.js builds a DM channel it has not seen from a message, not from a reaction (README: known limits).
    fake.dispatch("MESSAGE_CREATE", directMessage);
    await channel.waitForEvent(message(directMessage.id));
    fake.dispatch("MESSAGE_REACTION_ADD", reactionAdd);
    fake.dispatch("MESSAGE_REACTION_REMOVE", reactionRemove);
    fake.dispatch("MESSAGE_REACTION_ADD", customReactionAdd);
    fake.dispatch("MESSAGE_REACTION_ADD", directReactionAdd);
    await eventually(() => expect(reactions()).toHaveLength(4));
    const [added, removed, custom, direct] = reactions();
    expect(added).toMatchObject({
      emoji: "🔥",
      action: "added",
      actor: { id: BOB.id, name: "Bob", isBot: false },
      conversation: { id: "200", kind: "group" },
      target: { conversationId: "200", messageId: botMessage.id, fromBot: true },
    });
    expect(removed).toMatchObject({ emoji: "🔥", action: "removed", actor: { id: BOB.id } });
    expect(custom?.emoji).toBe("party_parrot:800000000000000001");
    expect(direct).toMatchObject({
      conversation: { id: "400", kind: "direct" },
      target: { conversationId: "400", messageId: directReactionAdd.message_id, fromBot: true },
    });
    const session = fake.gateway.current?.id;
    expect(reactions().map((e) => e.eventId)).toEqual(
      [1, 2, 3, 4].map((n) => `reaction:${session}:${(fake.gateway.current?.seq ?? 0) - 4 + n}`),
    );
  });

  it("a reaction replayed by the gateway carries the same eventId: the host keeps one", async () => {
    fake.dispatch("MESSAGE_REACTION_ADD", reactionAdd);
    await eventually(() => expect(reactions()).toHaveLength(1));
    fake.redeliverLast();
    await eventually(() => expect(channel.duplicates).toHaveLength(1));
    expect(channel.duplicates[0]?.eventId).toBe(reactions()[0]?.eventId);
    expect(reactions()).toHaveLength(1);
  });

  it("after a restart no reaction reuses an eventId of before (the host would drop it)", async () => {
    const target = fake.userSends({ channelId: "200", author: ANN, content: "react to me" });
    await channel.waitForEvent(message(target.id));
    const fire = { id: null, name: "🔥" };
    fake.userReacts(target.id, BOB, fire);
    fake.userUnreacts(target.id, BOB, fire);
    await eventually(() => expect(reactions()).toHaveLength(2));
    await channel.restart();
    fake.userReacts(target.id, BOB, fire);
    await eventually(() => expect(reactions()).toHaveLength(3));
    expect(reactions().map((e) => e.action)).toEqual(["added", "removed", "added"]);
    expect(channel.duplicates).toEqual([]);
  });
});

describe("Discord inbound: Discord's own Example Message (discord-api-docs, resources/message.mdx)", () => {
  it("as a MESSAGE_CREATE dispatch it is a direct message from its author (no guild_id: outside any guild)", async () => {
    fake.dispatch("MESSAGE_CREATE", exampleMessage);
    expect(await channel.waitForEvent(message(exampleMessage.id))).toEqual({
      type: "message",
      eventId: `message:${exampleMessage.id}`,
      conversation: { id: "290926798999357250", kind: "direct" },
      sender: { id: "53908099506183680", name: "Mason", isBot: false },
      text: "Supa Hot",
      mentions: { bot: false, others: [] },
      ref: {
        channel: "discord",
        accountId: "default",
        conversationId: "290926798999357250",
        messageId: exampleMessage.id,
        fromBot: false,
        data: { channelId: "290926798999357250" },
      },
      timestamp: SnowflakeUtil.timestampFrom(exampleMessage.id),
    });
    expect(channel.logs.at("warn")).toEqual([]);
  });

  it("without the fields the channel does not read (timestamp, the author's username) it is still a message", async () => {
    const { timestamp: _unread, author, ...rest } = exampleMessage;
    const { username: _name, ...anonymous } = author;
    fake.dispatch("MESSAGE_CREATE", { ...rest, author: anonymous });
    const event = await channel.waitForEvent(message(exampleMessage.id));
    expect(event).toMatchObject({ text: "Supa Hot", sender: { id: "53908099506183680", isBot: false } });
    expect(channel.logs.at("warn")).toEqual([]);
  });
});

describe("Discord inbound: what the channel cannot read", () => {
  it("is a warning naming what is wrong, never an event; the next dispatch still arrives", async () => {
    const watch = new EscapeWatch().start();
    try {
      fake.deliverUnparseable("200");
      fake.dispatch("MESSAGE_REACTION_ADD", numericReactionAdd);
      // Not JSON-object data at all: discord.js itself would throw on it inside its socket handler.
      fake.dispatch("MESSAGE_CREATE", null);
      await afterwards();
      const warnings = channel.logs.at("warn").map((r) => r.message);
      expect(warnings).toEqual([
        expect.stringMatching(/cannot read: a MESSAGE_CREATE dispatch .*id: expected a snowflake.*author:/),
        expect.stringMatching(/cannot read: a MESSAGE_REACTION_ADD dispatch .*user_id: expected a snowflake/),
        expect.stringMatching(/cannot read: a MESSAGE_CREATE dispatch .*the payload: .*received null/),
      ]);
      expect(channel.events.map((e) => e.type)).toEqual(["message"]);
      expect(watch.describe()).toBe("");
    } finally {
      watch.stop();
    }
  });
});
