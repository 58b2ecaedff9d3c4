import type { InboundMessageEvent } from "@chorus/core";
import { type RunningChannel, startChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { imessageChannel } from "./index.js";
import { SECRET_HEADER } from "./secret.js";
import { fixture, startOnFake, stopOnFake } from "./test-support.test-util.js";
import type { FakeBlueBubbles } from "./testing/index.js";

const SECRET = "s3cret-s3cret-s3cret";
let fake: FakeBlueBubbles;
let running: RunningChannel;
let hookUrl: string;

beforeEach(async () => {
  ({ fake, running, hookUrl } = await startOnFake(SECRET));
});

afterEach(() => stopOnFake({ fake, running }));

const messages = () => running.events.filter((e): e is InboundMessageEvent => e.type === "message");
const post = (body: string) =>
  fetch(hookUrl, { method: "POST", headers: { "content-type": "application/json" }, body }).then((r) => r.status);
const warnings = () => running.logs.at("warn", true).map((r) => r.message);

describe("iMessage webhook (the transport BlueBubbles posts to)", () => {
  it("registers its webhook with the secret in the URL, for new and updated messages", () => {
    expect(fake.state.webhooks).toEqual([
      {
        id: 1,
        url: `${running.hooksUrl}/hooks/imessage/default?secret=${SECRET}`,
        events: ["new-message", "updated-message"],
      },
    ]);
  });

  it("a redelivered message carries the same eventId, so the host keeps one event", async () => {
    const hook = await fixture("direct");
    await fake.deliver(hook, hookUrl);
    await fake.deliver(hook, hookUrl);
    expect(messages().map((m) => m.eventId)).toEqual(["message:D1D1D1D1-2222-3333-4444-DIRECTMSG001"]);
    expect(running.duplicates.map((e) => e.eventId)).toEqual(["message:D1D1D1D1-2222-3333-4444-DIRECTMSG001"]);
  });

  it("forged posts (no secret, wrong secret) are refused with 401 and emit nothing; the header works too", async () => {
    const hook = await fixture("direct");
    const bare = `${running.hooksUrl}/hooks/imessage/default`;
    expect(await fake.deliver(hook, bare)).toEqual([401]);
    expect(await fake.forgeWebhook(bare, "forged")).toBe(401);
    expect(running.events).toEqual([]);
    const viaHeader = await fetch(bare, {
      method: "POST",
      headers: { "content-type": "application/json", [SECRET_HEADER]: SECRET },
      body: JSON.stringify(hook),
    });
    expect(viaHeader.status).toBe(200);
    expect(messages()).toHaveLength(1);
  });

  it("a body it cannot read is answered 400 with a warning naming what was wrong", async () => {
    expect(await post("{ not json")).toBe(400);
    expect(await post(JSON.stringify([1, 2]))).toBe(400);
    expect(await fake.deliverUnparseable()).toEqual([400]);
    expect(running.events).toEqual([]);
    expect(warnings()).toEqual([
      expect.stringMatching(
        /^imessage: skipped a delivery it cannot read: the body is not JSON \(.*\): "\{ not json"$/u,
      ),
      "imessage: skipped a delivery it cannot read: not a BlueBubbles event: body: Invalid input: expected object, received array",
      expect.stringMatching(
        /^imessage: skipped a delivery it cannot read: the message of a new-message webhook: data\.guid: .*expected string, received number; data\.isFromMe: .*expected boolean, received undefined; data\.chats: .*expected array, received string$/u,
      ),
    ]);
  });

  it("other BlueBubbles events are answered 200 and left alone", async () => {
    expect(await post(JSON.stringify({ type: "typing-indicator", data: { display: true, guid: "x" } }))).toBe(200);
    expect(running.events).toEqual([]);
    expect(warnings()).toEqual([]);
  });

  it("a new-message without chats asks the server which chat the row is in", async () => {
    fake.addChat({ guid: "iMessage;+;chat9", displayName: "Nine", participants: ["ann@example.com"] });
    const hook = fake.userSends({ chatGuid: "iMessage;+;chat9", from: "ann@example.com", text: "where am I" });
    await fake.deliver({ ...hook, data: { ...hook.data, chats: [] } }, hookUrl);
    expect(messages()[0]?.conversation).toMatchObject({ id: "iMessage;+;chat9", kind: "group", title: "Nine" });
    expect(fake.server.requestsTo("GET", `/api/v1/message/${hook.guid}`)[0]?.query).toMatchObject({
      with: "chats,chats.participants",
    });
  });

  it("a new-message without chats that the server does not know either is a warning", async () => {
    const hook = await fixture("direct");
    expect(await fake.deliver({ ...hook, data: { ...hook.data, chats: undefined } }, hookUrl)).toEqual([400]);
    expect(running.events).toEqual([]);
    expect(warnings()).toEqual([
      "imessage: skipped a delivery it cannot read: new-message D1D1D1D1-2222-3333-4444-DIRECTMSG001 names no chat, and the server could not say which",
    ]);
  });

  it("a reply to a message the record does not know asks the server whether it was the bot's", async () => {
    fake.addChat({ guid: "iMessage;-;+15550001111", participants: ["+15550001111"] });
    await running.instance.send({ id: "iMessage;-;+15550001111" }, { text: "sent before the store was lost" });
    const sent = fake.messagesIn("iMessage;-;+15550001111")[0];
    const fresh = await startChannel(imessageChannel, { config: fake.config({ webhookSecret: SECRET }) });
    try {
      const hook = fake.userSends({
        chatGuid: "iMessage;-;+15550001111",
        from: "+15550001111",
        text: "ok",
        replyTo: sent?.guid,
      });
      const url = fake.state.webhooks.find((w) => w.url.startsWith(fresh.hooksUrl))?.url ?? "";
      await fake.deliver(hook, url);
      const event = fresh.events[0] as InboundMessageEvent;
      expect(event.conversation).toEqual({
        id: "iMessage;-;+15550001111",
        kind: "direct",
        members: [{ id: "+15550001111", e164: "+15550001111" }],
      });
      expect(event.replyTo).toEqual({ messageId: sent?.guid, fromBot: true });
      expect(fake.server.requestsTo("GET", `/api/v1/message/${sent?.guid}`)).toHaveLength(1);
    } finally {
      await fresh.stop();
    }
  });

  it("a live round trip: what a person writes on the fake server arrives through its webhook delivery", async () => {
    fake.addChat({ guid: "iMessage;+;chat9", displayName: "Nine", participants: ["ann@example.com"] });
    const hook = fake.userSends({ chatGuid: "iMessage;+;chat9", from: "ann@example.com", text: "hello" });
    expect(await fake.deliver(hook)).toEqual([200]);
    const event = await running.waitForEvent((e) => e.type === "message");
    expect(event.conversation).toMatchObject({ id: "iMessage;+;chat9", kind: "group", title: "Nine" });
    expect(await fake.redeliverLast()).toEqual([200]);
    expect(running.events).toHaveLength(1);
    expect(running.duplicates).toHaveLength(1);
  });
});
