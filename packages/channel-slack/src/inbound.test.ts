import { readFileSync } from "node:fs";
import { Redactor } from "@chorus/channel-kit";
import { type InboundMessageEvent, type InboundReactionEvent, silentLogger } from "@chorus/core";
import { WebClient } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SlackApi } from "./api.js";
import { slackConfigSchema } from "./config.js";
import { Directory } from "./directory.js";
import { normalizePayload } from "./inbound.js";
import { createFakeSlack, type FakeSlack } from "./testing/index.js";
import { webClientOptions } from "./web.js";

// Fixtures are Slack's documented payloads (src/fixtures); the bot there is U0LAN0Z89.
const BOT = { userId: "U0LAN0Z89", botId: "B0BOTID001" };
const scope = { channel: "slack", accountId: "default", botId: BOT.userId };
const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), "utf8"));

let fake: FakeSlack;
let directory: Directory;

beforeAll(async () => {
  fake = createFakeSlack({ bot: { id: BOT.userId, bot_id: BOT.botId, name: "chorus", display_name: "Chorus" } });
  await fake.start();
  for (const [id, name, display] of [
    ["U061F7AUR", "ann", "Ann"],
    ["U0G9QF9C6", "bob", "Bob"],
    ["U123ABC456", "cleo", ""],
    ["U2147483697", "dev", "Dev"],
    ["U222222222", "eve", "Eve"],
  ] as const) {
    fake.addUser({ id, name, real_name: `${name.toUpperCase()} Real`, display_name: display });
  }
  const members = [BOT.userId, "U061F7AUR", "U0G9QF9C6"];
  fake.addConversation({ id: "C123ABC456", type: "channel", name: "general", members });
  fake.addConversation({ id: "C0CHAN0001", type: "channel", name: "rivers", members });
  fake.addConversation({ id: "G024BE91L", type: "group", name: "secret-plans", members });
  fake.addConversation({ id: "D024BE91L", type: "im", members: [BOT.userId, "U2147483697"] });
  const config = slackConfigSchema.parse(fake.config());
  const hooks = { signal: new AbortController().signal, logger: silentLogger };
  const api = new SlackApi(new WebClient(config.botToken, webClientOptions(config, hooks)), config, {
    signal: hooks.signal,
    redactor: new Redactor([]),
  });
  directory = new Directory(api, 60_000, silentLogger);
});

afterAll(() => fake.close());

const normalize = (payload: unknown) => normalizePayload(payload, scope, BOT, directory);
const message = async (name: string) => (await normalize(fixture(name))) as InboundMessageEvent;

describe("inbound messages", () => {
  it("normalises a channel message (message.channels), with the channel's title and members", async () => {
    const event = await message("message-channels");
    expect(event).toMatchObject({
      type: "message",
      eventId: "C123ABC456/1355517523.000005",
      conversation: { id: "C123ABC456", kind: "group", title: "general" },
      sender: { id: "U123ABC456", name: "CLEO Real" },
      text: "Live long and prospect.",
      mentions: { bot: false, others: [] },
      ref: {
        channel: "slack",
        accountId: "default",
        conversationId: "C123ABC456",
        messageId: "1355517523.000005",
        fromBot: false,
      },
      timestamp: 1355517523000,
    });
    expect(event.conversation.members?.map((m) => m.name)).toEqual(["Chorus", "Ann", "Bob"]);
    expect(event.replyTo).toBeUndefined();
  });

  it("maps im to a direct conversation and group / mpim to groups", async () => {
    expect((await message("message-im")).conversation).toEqual({ id: "D024BE91L", kind: "direct" });
    expect((await message("message-groups")).conversation).toMatchObject({ kind: "group", title: "secret-plans" });
    expect((await message("message-mpim")).conversation.kind).toBe("group");
  });

  it("takes an app_mention as a mention of the bot, with the same eventId as its message twin", async () => {
    const mention = await message("app-mention");
    const twin = await message("message-mention-rich-text");
    expect(mention.mentions).toEqual({ bot: true, others: [] });
    expect(mention.text).toBe("@Chorus is it everything a river should be?");
    expect(mention.conversation.kind).toBe("group");
    expect(twin.eventId).toBe(mention.eventId);
  });

  it("resolves Slack markup and reads mentions from the text and the rich-text user elements", async () => {
    const event = await message("message-mention-rich-text");
    expect(event.text).toBe(
      "@Chorus is it everything a river should be? cc @Bob & @here, see #rivers and the map (https://example.com/river?a=1&b=2)",
    );
    expect(event.mentions).toEqual({ bot: true, others: ["U0G9QF9C6"] });
  });

  it("finds a mention only in the blocks (a client that sends plain text) and not from <!channel>", async () => {
    const payload = fixture("message-channels") as { event: Record<string, unknown> };
    payload.event.text = "hey everyone <!channel>";
    payload.event.blocks = [
      {
        type: "rich_text",
        elements: [{ type: "rich_text_section", elements: [{ type: "user", user_id: "U0G9QF9C6" }] }],
      },
    ];
    const event = (await normalize(payload)) as InboundMessageEvent;
    expect(event.text).toBe("hey everyone @channel");
    expect(event.mentions).toEqual({ bot: false, others: ["U0G9QF9C6"] });
  });

  it("puts a thread reply in the thread's session and tells that it answers the bot", async () => {
    const event = await message("thread-reply-to-bot");
    expect(event.conversation.threadId).toBe("1515449530.000100");
    expect(event.replyTo).toEqual({ messageId: "1515449530.000100", fromBot: true, senderId: BOT.userId });
    expect(event.ref).toMatchObject({ threadId: "1515449530.000100", messageId: "1515449600.000200" });
  });

  it("follows thread_broadcast and file_share, and ignores edits, deletions and joins", async () => {
    const broadcast = await message("thread-broadcast");
    expect(broadcast).toMatchObject({
      text: "broadcasting this reply",
      conversation: { threadId: "1673464730.703009" },
    });
    expect((await message("file-share")).text).toBe("Here is the report");
    for (const name of ["message-changed", "message-deleted", "channel-join"])
      expect(await normalize(fixture(name))).toBeUndefined();
  });

  it("drops the bot's own messages (by user id, and by bot_id alone)", async () => {
    expect(await normalize(fixture("bot-echo"))).toBeUndefined();
    const payload = fixture("bot-echo") as { event: Record<string, unknown> };
    payload.event.user = "U0SOMEBOT1";
    expect(await normalize(payload)).toBeUndefined();
  });

  it("refuses what it cannot read, naming each field", async () => {
    const broken = { type: "event_callback", event: { type: "message", user: "U061F7AUR", ts: 1355517523.000005 } };
    await expect(normalize(broken)).rejects.toThrow(/unreadable message event: channel: .*; ts: /);
    await expect(normalize({ event: {} })).rejects.toThrow(/unreadable Events API body: type:/);
    const noUser = fixture("message-channels") as { event: Record<string, unknown> };
    delete noUser.event.user;
    await expect(normalize(noUser)).rejects.toThrow("user: required");
  });

  it("ignores event types it does not follow and url_verification", async () => {
    expect(await normalize(fixture("url-verification"))).toBeUndefined();
    const other = fixture("message-channels") as { event: Record<string, unknown> };
    other.event = { type: "member_joined_channel", user: "U061F7AUR", channel: "C123ABC456" };
    expect(await normalize(other)).toBeUndefined();
  });
});

describe("inbound reactions", () => {
  it("normalises reaction_added with the emoji, the actor, the target and Slack's event_id", async () => {
    const event = (await normalize(fixture("reaction-added"))) as InboundReactionEvent;
    expect(event).toMatchObject({
      type: "reaction",
      eventId: "Ev123ABC456",
      emoji: "👍️",
      action: "added",
      actor: { id: "U123ABC456", name: "CLEO Real" },
      conversation: { id: "C123ABC456", kind: "group" },
      target: { conversationId: "C123ABC456", messageId: "1360782400.498405", fromBot: false },
    });
  });

  it("keeps a custom emoji's name, marks a reaction on the bot's message, and drops the bot's own", async () => {
    const removed = fixture("reaction-removed") as { event: Record<string, unknown> };
    removed.event.item_user = BOT.userId;
    const event = (await normalize(removed)) as InboundReactionEvent;
    expect(event).toMatchObject({ emoji: "partyparrot", action: "removed", target: { fromBot: true } });
    const own = fixture("reaction-added") as { event: Record<string, unknown> };
    own.event.user = BOT.userId;
    expect(await normalize(own)).toBeUndefined();
  });
});
