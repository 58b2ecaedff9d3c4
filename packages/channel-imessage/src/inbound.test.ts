import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { InboundMessageEvent, InboundReactionEvent } from "@chorus/core";
import { type RunningChannel, startChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { imessageChannel } from "./index.js";
import { SECRET_HEADER } from "./secret.js";
import { createFakeBlueBubbles, type FakeBlueBubbles, type FakeHook } from "./testing/index.js";

const fixture = async (name: string): Promise<FakeHook> =>
  JSON.parse(await readFile(new URL(`./fixtures/${name}.json`, import.meta.url), "utf8")) as FakeHook;

let fake: FakeBlueBubbles;
let running: RunningChannel;
let hookUrl: string;

beforeEach(async () => {
  fake = createFakeBlueBubbles();
  await fake.start();
  running = await startChannel(imessageChannel, { config: fake.config({ webhookSecret: "s3cret-s3cret-s3cret" }) });
  hookUrl = fake.state.webhooks[0]?.url ?? "";
});

afterEach(async () => {
  await running.stop();
  await fake.close();
});

const messages = () => running.events.filter((e): e is InboundMessageEvent => e.type === "message");
const reactions = () => running.events.filter((e): e is InboundReactionEvent => e.type === "reaction");

describe("iMessage inbound (webhooks from BlueBubbles)", () => {
  it("registers its webhook with the secret in the URL, for new and updated messages", () => {
    expect(fake.state.webhooks).toEqual([
      {
        id: 1,
        url: `${running.hooksUrl}/hooks/imessage/default?secret=s3cret-s3cret-s3cret`,
        events: ["new-message", "updated-message"],
      },
    ]);
  });

  it("a group message: group kind from the GUID, name, members, E.164 sender, no platform mentions", async () => {
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

  it("the bot's own echo is dropped, and a reply to it is a reply to the bot", async () => {
    expect(await fake.deliver(await fixture("own-echo"), hookUrl)).toEqual([200]);
    expect(running.events).toEqual([]);
    await fake.deliver(await fixture("reply-to-bot"), hookUrl);
    const [reply] = messages();
    expect(reply?.replyTo).toEqual({ messageId: "BOT-SENT-GUID-0001", fromBot: true });
    expect(reply?.text).toBe("yes please"); // the attachment placeholder U+FFFC is gone
    expect(reply?.sender).toEqual({ id: "bob@example.com" });
  });

  it("a reply to a message the record does not know asks the server whether it was the bot's", async () => {
    fake.addChat({ guid: "iMessage;-;+15550001111", participants: ["+15550001111"] });
    await running.instance.send({ id: "iMessage;-;+15550001111" }, { text: "sent before a restart" });
    const sent = fake.messagesIn("iMessage;-;+15550001111")[0];
    const restarted = await startChannel(imessageChannel, {
      config: fake.config({ webhookSecret: "s3cret-s3cret-s3cret" }),
    });
    try {
      const hook = fake.userSends({
        chatGuid: "iMessage;-;+15550001111",
        from: "+15550001111",
        text: "ok",
        replyTo: sent?.guid,
      });
      const url = fake.state.webhooks.find((w) => w.url.startsWith(restarted.hooksUrl))?.url ?? "";
      await fake.deliver(hook, url);
      const event = restarted.events[0] as InboundMessageEvent;
      expect(event.conversation).toEqual({
        id: "iMessage;-;+15550001111",
        kind: "direct",
        members: [{ id: "+15550001111", e164: "+15550001111" }],
      });
      expect(event.replyTo).toEqual({ messageId: sent?.guid, fromBot: true });
      expect(fake.server.requestsTo("GET", `/api/v1/message/${sent?.guid}`)).toHaveLength(1);
    } finally {
      await restarted.stop();
    }
  });

  it("tapbacks become reaction events (names and chat.db numbers), never chat messages", async () => {
    await fake.deliver(await fixture("own-echo"), hookUrl);
    await fake.deliver(await fixture("tapback-love"), hookUrl);
    await fake.deliver(await fixture("tapback-removed-numeric"), hookUrl);
    expect(messages()).toEqual([]);
    expect(reactions().map((r) => [r.action, r.emoji, r.actor.id, r.target.messageId, r.target.fromBot])).toEqual([
      ["added", "❤️", "bob@example.com", "BOT-SENT-GUID-0001", true],
      ["removed", "👍", "+15550001111", "D1D1D1D1-2222-3333-4444-DIRECTMSG001", false],
    ]);
    expect(reactions()[0]?.eventId).toBe("reaction:TAPBACK-LOVE-0001");
  });

  it("the bot's own tapbacks and read receipts (updated-message) give nothing", async () => {
    await fake.deliver(await fixture("own-tapback"), hookUrl);
    await fake.deliver(await fixture("read-receipt"), hookUrl);
    expect(running.events).toEqual([]);
  });

  it("a redelivered message is emitted once", async () => {
    const hook = await fixture("direct");
    await fake.deliver(hook, hookUrl);
    await fake.deliver(hook, hookUrl);
    expect(messages().map((m) => m.eventId)).toEqual(["message:D1D1D1D1-2222-3333-4444-DIRECTMSG001"]);
  });

  it("forged posts (no secret, wrong secret) are refused with 401 and emit nothing; the header works too", async () => {
    const hook = await fixture("direct");
    const bare = `${running.hooksUrl}/hooks/imessage/default`;
    expect(await fake.deliver(hook, bare)).toEqual([401]);
    expect(await fake.deliver(hook, `${bare}?secret=s3cret-s3cret-WRONG`)).toEqual([401]);
    expect(running.events).toEqual([]);
    const viaHeader = await fetch(bare, {
      method: "POST",
      headers: { "content-type": "application/json", [SECRET_HEADER]: "s3cret-s3cret-s3cret" },
      body: JSON.stringify(hook),
    });
    expect(viaHeader.status).toBe(200);
    expect(messages()).toHaveLength(1);
  });

  it("a live round trip: what a person writes on the fake server arrives through its webhook delivery", async () => {
    fake.addChat({ guid: "iMessage;+;chat9", displayName: "Nine", participants: ["ann@example.com"] });
    const hook = fake.userSends({ chatGuid: "iMessage;+;chat9", from: "ann@example.com", text: "hello" });
    expect(await fake.deliver(hook)).toEqual([200]);
    const event = await running.waitForEvent((e) => e.type === "message");
    expect(event.conversation).toMatchObject({ id: "iMessage;+;chat9", kind: "group", title: "Nine" });
  });
});

describe("the generated webhook secret", () => {
  it("is generated when webhookSecret is absent and kept across restarts in stateDir", async () => {
    const first = await startChannel(imessageChannel, {
      config: fake.config(),
      stateDir: await mkdtemp(join(tmpdir(), "chorus-imessage-secret-")),
    });
    const url = fake.state.webhooks.at(-1)?.url ?? "";
    const secret = new URL(url).searchParams.get("secret");
    expect(secret).toMatch(/^[\w-]{32}$/u);
    await first.stop();
    const again = await startChannel(imessageChannel, { config: fake.config(), stateDir: first.ctx.stateDir });
    try {
      const registered = fake.state.webhooks.filter((w) => w.url.startsWith(again.hooksUrl));
      expect(new URL(registered[0]?.url ?? "").searchParams.get("secret")).toBe(secret);
    } finally {
      await again.stop();
      await rm(first.ctx.stateDir, { recursive: true, force: true });
    }
  });
});
