import type { InboundMessageEvent, InboundReactionEvent } from "@chorus/core";
import type { RunningChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fixture, startOnFake, stopOnFake } from "./test-support.test-util.js";
import type { FakeBlueBubbles } from "./testing/index.js";

let fake: FakeBlueBubbles;
let running: RunningChannel;
let hookUrl: string;

beforeEach(async () => {
  ({ fake, running, hookUrl } = await startOnFake("s3cret-s3cret-s3cret"));
});

afterEach(() => stopOnFake({ fake, running }));

const messages = () => running.events.filter((e): e is InboundMessageEvent => e.type === "message");
const reactions = () => running.events.filter((e): e is InboundReactionEvent => e.type === "reaction");
const warnings = () => running.logs.at("warn", true).map((r) => r.message);

describe("iMessage inbound: BlueBubbles message rows → events (fixtures from the server's serialisers)", () => {
  it("a group message: group kind, name, members, E.164 sender, no platform mentions", async () => {
    expect(await fake.deliver(await fixture("group-mention"), hookUrl)).toEqual([200]);
    expect(messages()).toEqual([
      {
        type: "message",
        eventId: "message:3C2B4E1A-7F55-4C1D-9E0B-11AA22BB33CC",
        conversation: {
          id: "iMessage;+;chat100200300",
          kind: "group",
          title: "Weekend Plans",
          members: [{ id: "+15550001111", e164: "+15550001111" }, { id: "bob@example.com" }],
        },
        sender: { id: "+15550001111", e164: "+15550001111" },
        text: "Chorus, what do you think about Bob's idea?",
        mentions: { bot: false, others: [] },
        ref: {
          channel: "imessage",
          accountId: "default",
          conversationId: "iMessage;+;chat100200300",
          messageId: "3C2B4E1A-7F55-4C1D-9E0B-11AA22BB33CC",
          fromBot: false,
        },
        timestamp: 1735689600000,
      },
    ]);
  });

  it("a direct chat without participants is a direct chat whose member is the sender", async () => {
    const hook = await fixture("direct");
    expect((hook.data.chats as Record<string, unknown>[])[0]).not.toHaveProperty("participants");
    await fake.deliver(hook, hookUrl);
    expect(messages()[0]).toMatchObject({
      conversation: { id: "iMessage;-;+15550001111", kind: "direct", members: [{ id: "+15550001111" }] },
      sender: { id: "+15550001111", e164: "+15550001111" },
      text: "Hi there",
    });
    expect(messages()[0]?.conversation).not.toHaveProperty("title");
  });

  it("a direct row without a handle takes its sender from the chat GUID", async () => {
    const hook = await fixture("direct");
    await fake.deliver({ ...hook, data: { ...hook.data, handle: null } }, hookUrl);
    expect(messages()[0]?.sender).toEqual({ id: "+15550001111", e164: "+15550001111" });
  });

  it("the bot's own echo is dropped, and a reply to it is a reply to the bot", async () => {
    expect(await fake.deliver(await fixture("own-echo"), hookUrl)).toEqual([200]);
    expect(running.events).toEqual([]);
    await fake.deliver(await fixture("reply-to-bot"), hookUrl);
    const [reply] = messages();
    expect(reply?.replyTo).toEqual({ messageId: "BOT-SENT-GUID-0001", fromBot: true });
    expect(reply?.text).toBe("yes please"); // the attachment placeholder U+FFFC is gone
    expect(reply?.sender).toEqual({ id: "bob@example.com" });
  });

  it("tapback rows (a name, a numeric string) become reaction events; their `Loved “…”` text never a message", async () => {
    await fake.deliver(await fixture("own-echo"), hookUrl);
    await fake.deliver(await fixture("tapback-love"), hookUrl);
    await fake.deliver(await fixture("tapback-removed-numeric"), hookUrl);
    expect(messages()).toEqual([]);
    expect(reactions().map((r) => [r.action, r.emoji, r.actor.id, r.target.messageId, r.target.fromBot])).toEqual([
      ["added", "❤️", "bob@example.com", "BOT-SENT-GUID-0001", true],
      ["removed", "👍", "+15550001111", "D1D1D1D1-2222-3333-4444-DIRECTMSG001", false],
    ]);
    expect(reactions()[0]?.eventId).toBe("reaction:TAPBACK-LOVE-0001");
    expect(reactions()[1]?.conversation).toMatchObject({ id: "iMessage;-;+15550001111", kind: "direct" });
  });

  it("an emoji tapback (type 2006) carries the emoji of its row's text", async () => {
    await fake.deliver(await fixture("tapback-emoji"), hookUrl);
    expect(reactions().map((r) => [r.action, r.emoji, r.target.messageId])).toEqual([
      ["added", "🎉", "D1D1D1D1-2222-3333-4444-DIRECTMSG001"],
    ]);
    expect(messages()).toEqual([]);
  });

  it("the bot's own tapbacks give nothing", async () => {
    await fake.deliver(await fixture("own-tapback"), hookUrl);
    expect(running.events).toEqual([]);
  });

  it("updated-message (no chats: delivery, edit) is handled without an event or a warning", async () => {
    for (const name of ["updated-delivered", "updated-edited"]) {
      const hook = await fixture(name);
      expect(hook.data).not.toHaveProperty("chats");
      expect(await fake.deliver(hook, hookUrl)).toEqual([200]);
    }
    expect(running.events).toEqual([]);
    expect(warnings()).toEqual([]);
    expect(running.logs.at("debug").map((r) => r.message)).toContain("imessage: an updated-message is not an event");
  });

  it("a sticker row without its file gives nothing; an associated row of a type nobody knows is a warning naming the type", async () => {
    const hook = await fixture("tapback-love");
    await fake.deliver(
      { ...hook, data: { ...hook.data, guid: "STICKER-1", associatedMessageType: "sticker" } },
      hookUrl,
    );
    await fake.deliver({ ...hook, data: { ...hook.data, guid: "ODD-1", associatedMessageType: "2007" } }, hookUrl);
    expect(running.events).toEqual([]);
    expect(warnings()).toEqual([
      'imessage: skipped a delivery it cannot read: message ODD-1 has an associatedMessageType this plugin does not know: "2007"',
    ]);
  });

  it("an emoji tapback whose text shows no emoji, or a tapback with no target, is a warning", async () => {
    const hook = await fixture("tapback-emoji");
    await fake.deliver({ ...hook, data: { ...hook.data, guid: "E-1", text: "Reacted to “Hi there”" } }, hookUrl);
    await fake.deliver({ ...hook, data: { ...hook.data, guid: "E-2", associatedMessageGuid: null } }, hookUrl);
    expect(running.events).toEqual([]);
    expect(warnings()).toEqual([
      'imessage: skipped a delivery it cannot read: emoji tapback E-1 carries no emoji (text "Reacted to “Hi there”")',
      'imessage: skipped a delivery it cannot read: tapback E-2 ("2006") names no associatedMessageGuid',
    ]);
  });
});

describe("iMessage inbound: messages a real BlueBubbles Server serialised (recorded, see fixtures/README.md)", () => {
  it("a group message with the server's every field (and `any;` chat GUIDs) is a group message", async () => {
    expect(await fake.deliver(await fixture("recorded-group-message"), hookUrl)).toEqual([200]);
    expect(messages()).toEqual([
      {
        type: "message",
        eventId: "message:877D408A-7A81-4933-A25E-145CCA2F87A7",
        conversation: { id: "any;+;chat1234567890", kind: "group", title: "REDACTED" },
        sender: { id: "redacted" },
        text: "REDACTED",
        mentions: { bot: false, others: [] },
        ref: {
          channel: "imessage",
          accountId: "default",
          conversationId: "any;+;chat1234567890",
          messageId: "877D408A-7A81-4933-A25E-145CCA2F87A7",
          fromBot: false,
        },
        timestamp: 1788105087233,
      },
    ]);
    expect(warnings()).toEqual([]);
  });

  it("the account's own message (isFromMe) is read and dropped, with no warning", async () => {
    expect(await fake.deliver(await fixture("recorded-own-message"), hookUrl)).toEqual([200]);
    expect(running.events).toEqual([]);
    expect(warnings()).toEqual([]);
  });
});
