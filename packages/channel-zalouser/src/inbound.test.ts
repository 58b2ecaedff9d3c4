import { readFileSync } from "node:fs";
import type { RefScope } from "@chorus/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Reactions } from "zca-js";
import { normalizeMessage, normalizeReaction } from "./inbound.js";
import { type LinkedChannel, linkedChannel } from "./test-support.test-util.js";
import { ANN, BOB, TEAM } from "./testing/fixture.js";

const BOT = "2153466178471249562";
const scope: RefScope = { channel: "zalouser", accountId: "default", botId: BOT };
/** A fixture as zca-js hands it over (`message.data`). */
const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), "utf8"));
const team = {
  name: "Team Chorus",
  members: [
    { id: BOT, name: "Chorus Bot" },
    { id: ANN.id, name: ANN.name },
  ],
};

describe("normalizeMessage (payloads as zca-js hands them over)", () => {
  it("a group message: Zalo's mentions of the bot and of others, @all neither; title and members from group info", () => {
    const event = normalizeMessage(fixture("group-message-mentions"), "group", scope, team);
    expect(event).toMatchObject({
      type: "message",
      eventId: "msg:6200000000017",
      conversation: { id: TEAM, kind: "group", title: "Team Chorus", members: team.members },
      sender: { id: ANN.id, name: ANN.name },
      text: "@All @Chorus Bot can you ask @Bob Tran?",
      mentions: { bot: true, others: [BOB.id] },
      timestamp: 1733040000456,
    });
    expect(event?.ref).toEqual({
      channel: "zalouser",
      accountId: "default",
      conversationId: TEAM,
      messageId: "6200000000017",
      fromBot: false,
      data: {
        cliMsgId: "1733040000123",
        threadKind: "group",
        uidFrom: ANN.id,
        ts: "1733040000456",
        msgType: "webchat",
        text: "@All @Chorus Bot can you ask @Bob Tran?",
        ttl: 0,
      },
    });
  });

  it("a direct reply to the bot: the quote's owner is the bot, its global id (a number) the message replied to", () => {
    const event = normalizeMessage(fixture("direct-message-reply"), "user", scope);
    expect(event).toMatchObject({
      conversation: { id: ANN.id, kind: "direct", title: ANN.name },
      mentions: { bot: false, others: [] },
      replyTo: { messageId: "6200000000020", fromBot: true, senderId: BOT, text: "Dinner at 7pm?" },
    });
  });

  it("a photo: an image attachment by its href, its size from params; its title the text; without group info the group has no title", () => {
    const event = normalizeMessage(fixture("photo-message"), "group", scope);
    expect(event?.text).toBe("the whiteboard");
    expect(event?.attachments).toEqual([
      { kind: "image", width: 1280, height: 960, source: { url: "https://photo-stal-9.zdn.vn/a1b2c3.jpg" } },
    ]);
    expect(event?.conversation).toEqual({ id: TEAM, kind: "group" });
  });

  it("a voice message: a voice attachment by its href and fileSize, no text", () => {
    const event = normalizeMessage(fixture("voice-message"), "user", scope);
    expect(event).toMatchObject({ conversation: { id: ANN.id, kind: "direct" }, text: "" });
    expect(event?.attachments).toEqual([
      { kind: "voice", size: 12480, source: { url: "https://file-stal-19.dlfl.vn/8d1f2c/voice-1733040400.aac" } },
    ]);
  });

  it("a file: its title is its name, its fileSize (a string) its size; no text", () => {
    const event = normalizeMessage(fixture("file-message"), "group", scope);
    expect(event?.text).toBe("");
    expect(event?.attachments).toEqual([
      {
        kind: "file",
        filename: "minutes.pdf",
        size: 7295,
        source: { url: "https://file-stal-19.dlfl.vn/gr/0d3f/minutes.pdf" },
      },
    ]);
  });

  it("a sticker: its catalogue entry, which download looks up; a location: its coordinates, name and address", () => {
    expect(normalizeMessage(fixture("sticker-message"), "user", scope)?.attachments).toEqual([
      { kind: "sticker", source: { sticker: { id: 21979, catId: 10751, type: 7 } } },
    ]);
    const place = normalizeMessage(fixture("location-message"), "group", scope);
    expect(place?.text).toBe("");
    expect(place?.attachments).toEqual([
      {
        kind: "location",
        location: {
          latitude: 10.772485,
          longitude: 106.698059,
          name: "Ben Thanh Market",
          address: "Le Loi, District 1, Ho Chi Minh City",
        },
      },
    ]);
  });

  it("what carries no medium stays text: a link card by its title, a location without coordinates by its kind", () => {
    const card = { ...fixture("photo-message"), msgType: "chat.recommended" };
    expect(normalizeMessage(card, "group", scope)).toMatchObject({ text: "[chat.recommended] the whiteboard" });
    expect(normalizeMessage(card, "group", scope)?.attachments).toBeUndefined();
    const nowhere = { ...fixture("location-message"), content: { title: "", params: "{}" } };
    expect(normalizeMessage(nowhere, "group", scope)?.text).toBe("[chat.location.new]");
  });

  it("drops the bot's own message (zca-js writes the account's uid where Zalo wrote 0)", () => {
    expect(normalizeMessage({ ...fixture("group-message-mentions"), uidFrom: BOT }, "group", scope)).toBeUndefined();
  });

  it("reads only what it uses: a direct message without idTo is still a message; a group's must name its group", () => {
    const { idTo: _direct, ...direct } = fixture("direct-message-reply");
    expect(normalizeMessage(direct, "user", scope)).toMatchObject({
      conversation: { id: ANN.id, kind: "direct" },
      text: "yes, 7pm works",
    });
    const { idTo: _group, ...group } = fixture("group-message-mentions");
    expect(() => normalizeMessage(group, "group", scope)).toThrow("unreadable message: idTo: required in a group");
    const { idTo: _reaction, ...reaction } = fixture("reaction-group");
    expect(() => normalizeReaction(reaction, true, scope)).toThrow("unreadable reaction: idTo: required in a group");
  });

  it("refuses a message it cannot read, naming each field", () => {
    const { msgId: _, ...noId } = fixture("group-message-mentions");
    expect(() => normalizeMessage({ ...noId, content: 42 }, "group", scope)).toThrow(
      /unreadable message: msgId: .*content/,
    );
  });
});

describe("normalizeReaction", () => {
  it("a reaction in a group: the icon as its emoji, the target by its global and client ids", () => {
    expect(normalizeReaction(fixture("reaction-group"), true, scope, team)).toEqual({
      type: "reaction",
      eventId: "react:6200000000041",
      conversation: { id: TEAM, kind: "group", title: "Team Chorus", members: team.members },
      target: {
        channel: "zalouser",
        accountId: "default",
        conversationId: TEAM,
        messageId: "6200000000020",
        data: { cliMsgId: "1733040050000", threadKind: "group" },
      },
      emoji: "❤️",
      action: "added",
      actor: { id: ANN.id, name: ANN.name },
      timestamp: 1733040300500,
    });
  });

  it("an icon without an emoji stays Zalo's code; a cleared reaction (NONE) and the bot's own are dropped", () => {
    const withIcon = (rIcon: string, rType: number) => ({
      ...fixture("reaction-group"),
      content: { ...(fixture("reaction-group").content as object), rIcon, rType },
    });
    expect(normalizeReaction(withIcon(Reactions.F_CHAIR, 48), true, scope)?.emoji).toBe(":-f");
    expect(normalizeReaction(withIcon(Reactions.NONE, -1), true, scope)).toBeUndefined();
    expect(normalizeReaction({ ...fixture("reaction-group"), uidFrom: BOT }, true, scope)).toBeUndefined();
  });
});

describe("inbound through the wire (fake Zalo → zca-js → the channel)", () => {
  let world: LinkedChannel;
  beforeEach(async () => {
    world = await linkedChannel();
  });
  afterEach(() => world.close());

  it("a direct message and a group message, with the group's name and members from the group info API (asked once)", async () => {
    const dm = await world.fake.personSends({ from: ANN.id, text: "hi from Ann" });
    expect((await world.inbound(dm.msgId)).conversation).toEqual({ id: ANN.id, kind: "direct", title: ANN.name });
    for (const text of ["first", "second"]) {
      const sent = await world.fake.personSends({ from: BOB.id, group: TEAM, text });
      expect((await world.inbound(sent.msgId)).conversation).toEqual({
        id: TEAM,
        kind: "group",
        title: "Team Chorus",
        members: [
          { id: world.fake.bot.id, name: world.fake.bot.name },
          { id: ANN.id, name: ANN.name },
          { id: BOB.id, name: BOB.name },
        ],
      });
    }
    expect(world.fake.server.requestsTo("POST", "/api/group/getmg-v2")).toHaveLength(1);
  });

  it("a reply to the bot's message is a reply to the bot; the bot's own echo is not emitted", async () => {
    const sent = await world.running.instance.send({ id: TEAM }, { text: "Dinner at 7pm?" });
    const reply = await world.fake.personSends({ from: ANN.id, group: TEAM, text: "yes", replyTo: sent.messageId });
    expect((await world.inbound(reply.msgId)).replyTo).toEqual({
      messageId: sent.messageId,
      fromBot: true,
      senderId: world.fake.bot.id,
      text: "Dinner at 7pm?",
    });
    expect(world.fake.listener.sent.some((e) => e.json.includes("Dinner at 7pm?") && e.cmd === 521)).toBe(true);
    expect(world.running.events.filter((e) => e.type === "message" && e.text === "Dinner at 7pm?")).toEqual([]);
  });

  it("a person's reaction becomes a reaction event; the bot's own reaction (echoed by Zalo) does not", async () => {
    const sent = await world.running.instance.send({ id: TEAM }, { text: "react here" });
    await world.react(sent, { emoji: "👍" });
    await world.fake.personReacts(ANN.id, sent.messageId, Reactions.HAHA);
    const event = await world.running.waitForEvent((e) => e.type === "reaction");
    expect(event).toMatchObject({
      emoji: "😆",
      action: "added",
      actor: { id: ANN.id },
      target: { messageId: sent.messageId },
    });
    expect(world.running.events.filter((e) => e.type === "reaction")).toHaveLength(1);
  });

  it("every encoding Zalo uses for event data reaches the channel: plain, deflated, AES-GCM with and without deflate", async () => {
    for (const encoding of [0, 1, 2, 3] as const) {
      world.fake.listener.encoding = encoding;
      const sent = await world.fake.personSends({ from: ANN.id, text: `encoding ${encoding}` });
      expect((await world.inbound(sent.msgId)).text).toBe(`encoding ${encoding}`);
    }
  });

  it("an event it cannot read leaves a warning naming the fields, and the next one still arrives", async () => {
    await world.fake.deliverUnparseable();
    const next = await world.fake.personSends({ from: ANN.id, text: "after the garbage" });
    await world.inbound(next.msgId);
    const warning = world.running.logs.at("warn", true).find((r) => r.message.includes("cannot read"));
    expect(warning?.message).toMatch(
      /zalouser: skipped a delivery it cannot read: unreadable message: msgId: .*uidFrom/,
    );
  });

  it("a redelivered event keeps its eventId, so the host emits it once", async () => {
    const sent = await world.fake.personSends({ from: ANN.id, text: "only once" });
    await world.inbound(sent.msgId);
    await world.fake.redeliverLast();
    const next = await world.fake.personSends({ from: ANN.id, text: "after" });
    await world.inbound(next.msgId);
    expect(world.running.duplicates.map((e) => e.eventId)).toEqual([`msg:${sent.msgId}`]);
  });
});
