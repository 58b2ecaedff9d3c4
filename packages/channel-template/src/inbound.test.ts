import { createHmac } from "node:crypto";
import { type RunningChannel, startChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acmeChannel } from "./index.js";
import { createFakeAcme, type FakeAcme } from "./testing/index.js";
import type { AcmeWebhookEvent } from "./wire.js";

const ann = { id: "u_ann", name: "Ann" };
const bob = { id: "u_bob", name: "Bob" };

let fake: FakeAcme;
let running: RunningChannel;
let webhook: string;

beforeEach(async () => {
  fake = createFakeAcme();
  await fake.start();
  fake.addConversation({ id: "c_team", type: "group", name: "Team", members: [fake.bot, ann, bob] });
  fake.addConversation({ id: "c_ann", type: "direct" });
  running = await startChannel(acmeChannel, { config: fake.config(), accountId: "work" });
  webhook = running.ctx.http.url("/webhook");
});

afterEach(async () => {
  await running.stop();
  await fake.close();
});

/** Delivers and returns the status; the handler emits before it answers, so no waiting is needed. */
async function deliver(event: AcmeWebhookEvent, options?: Parameters<FakeAcme["deliver"]>[2]): Promise<number> {
  const response = await fake.deliver(webhook, event, options);
  return response.status;
}

describe("message.created", () => {
  it("normalises a group message that mentions the bot and someone else", async () => {
    const event = fake.userSends({
      conversationId: "c_team",
      author: ann,
      text: "@Chorus ask @Bob",
      mentions: ["u_bot", "u_bob"],
    });
    expect(await deliver(event)).toBe(200);
    const message = event.data.message;
    expect(running.events).toEqual([
      {
        type: "message",
        eventId: event.id,
        conversation: {
          id: "c_team",
          kind: "group",
          title: "Team",
          members: [{ id: "u_bot", name: "Chorus", isBot: true }, ann, bob],
        },
        sender: ann,
        text: "@Chorus ask @Bob",
        mentions: { bot: true, others: ["u_bob"] },
        ref: { channel: "acme", accountId: "work", conversationId: "c_team", messageId: message.id, fromBot: false },
        timestamp: Date.parse(message.created_at),
      },
    ]);
  });

  it("states that the bot was not mentioned when only others were", async () => {
    await deliver(fake.userSends({ conversationId: "c_team", author: ann, text: "@Bob lunch?", mentions: ["u_bob"] }));
    expect(running.events).toMatchObject([{ type: "message", mentions: { bot: false, others: ["u_bob"] } }]);
  });

  it("marks a reply to the bot's message as one, in a direct conversation", async () => {
    const sent = await running.instance.send({ id: "c_ann" }, { text: "Shall I book it?" });
    await deliver(
      fake.userSends({ conversationId: "c_ann", author: ann, text: "yes please", replyTo: sent.messageId }),
    );
    expect(running.events).toMatchObject([
      {
        conversation: { id: "c_ann", kind: "direct" },
        text: "yes please",
        mentions: { bot: false, others: [] },
        replyTo: { messageId: sent.messageId, fromBot: true, senderId: "u_bot", text: "Shall I book it?" },
        ref: { conversationId: "c_ann", fromBot: false },
      },
    ]);
  });

  it("drops the echo of the bot's own message", async () => {
    const sent = await running.instance.send({ id: "c_team" }, { text: "hello all" });
    expect(await deliver(fake.messageEvent(sent.messageId))).toBe(200);
    expect(running.events).toEqual([]);
  });

  it("emits a redelivered event once", async () => {
    const event = fake.userSends({ conversationId: "c_team", author: bob, text: "ping" });
    expect(await deliver(event)).toBe(200);
    expect(await deliver(event)).toBe(200);
    expect(await deliver(fake.userSends({ conversationId: "c_team", author: bob, text: "pong" }))).toBe(200);
    expect(running.events.map((e) => (e.type === "message" ? e.text : e.type))).toEqual(["ping", "pong"]);
  });

  it("acknowledges event types it does not know without emitting", async () => {
    const unknown = { id: "dlv_x", type: "member.joined", timestamp: Math.floor(Date.now() / 1000), data: {} };
    expect(await deliver(unknown as unknown as AcmeWebhookEvent)).toBe(200);
    expect(running.events).toEqual([]);
  });
});

describe("webhook verification", () => {
  const nowSeconds = () => Math.floor(Date.now() / 1000);
  let event: AcmeWebhookEvent;
  beforeEach(() => {
    event = fake.userSends({ conversationId: "c_team", author: ann, text: "secret plans" });
  });

  it("refuses a signature made with another secret", async () => {
    expect(await deliver(event, { secret: "not-the-webhook-secret" })).toBe(401);
    expect(running.events).toEqual([]);
  });

  it("refuses a missing or malformed signature header", async () => {
    expect(await deliver(event, { signature: "" })).toBe(401);
    expect(await deliver(event, { signature: "sha256=abc" })).toBe(401);
    expect(await deliver(event, { signature: `md5=${"0".repeat(64)}` })).toBe(401);
    expect(running.events).toEqual([]);
  });

  it("refuses a body that was changed after signing", async () => {
    const response = await fake.deliver(webhook, event);
    expect(response.status).toBe(200);
    const forged = fake.userSends({ conversationId: "c_team", author: ann, text: "transfer everything" });
    const signatureOfOriginal = signatureFor(event);
    expect(await deliver(forged, { signature: signatureOfOriginal })).toBe(401);
    expect(running.events.map((e) => e.type === "message" && e.text)).toEqual(["secret plans"]);
  });

  it("refuses a delivery older than five minutes, even correctly signed", async () => {
    expect(await deliver({ ...event, timestamp: nowSeconds() - 301 })).toBe(401);
    expect(await deliver({ ...event, timestamp: nowSeconds() + 301 })).toBe(401);
    expect(running.events).toEqual([]);
    expect(await deliver({ ...event, timestamp: nowSeconds() - 240 })).toBe(200);
    expect(running.events).toHaveLength(1);
  });

  it("refuses a replay that only freshened the unsigned timestamp header", async () => {
    const old = { ...event, timestamp: nowSeconds() - 3600 };
    expect(await deliver(old, { timestamp: nowSeconds() })).toBe(401);
    expect(await deliver(event, { timestamp: "yesterday" })).toBe(401);
    expect(running.events).toEqual([]);
  });

  it("answers 503 before start, so Acme delivers again later", async () => {
    const idle = await startChannel(acmeChannel, { config: fake.config(), start: false });
    try {
      const response = await fake.deliver(idle.ctx.http.url("/webhook"), event);
      expect(response.status).toBe(503);
      expect(idle.events).toEqual([]);
    } finally {
      await idle.stop();
    }
  });

  it("answers 503 after stop, and delivers again once restarted", async () => {
    await running.instance.stop();
    expect(await deliver(event)).toBe(503);
    expect(running.events).toEqual([]);
    await running.instance.start();
    expect(await deliver(event)).toBe(200);
    expect(running.events).toHaveLength(1);
  });
});

describe("reaction events", () => {
  it("reports reactions people add to and remove from the bot's message", async () => {
    const sent = await running.instance.send({ id: "c_team" }, { text: "lunch at noon" });
    expect(await deliver(fake.userReacts(sent.messageId, "u_ann", "❤️"))).toBe(200);
    expect(await deliver(fake.userUnreacts(sent.messageId, "u_ann", "❤️"))).toBe(200);
    expect(running.events).toMatchObject([
      {
        type: "reaction",
        action: "added",
        emoji: "❤",
        actor: ann,
        conversation: { id: "c_team", kind: "group", title: "Team" },
        target: {
          channel: "acme",
          accountId: "work",
          conversationId: "c_team",
          messageId: sent.messageId,
          fromBot: true,
        },
      },
      { type: "reaction", action: "removed", emoji: "❤", actor: ann, target: { fromBot: true } },
    ]);
    expect(fake.reactionsBy(sent.messageId, "u_ann")).toEqual([]);
  });

  it("reports reactions on other people's messages as not the bot's, and drops the bot's own", async () => {
    const message = fake.userSends({ conversationId: "c_team", author: bob, text: "done!" });
    const messageId = message.data.message.id;
    await deliver(fake.userReacts(messageId, "u_bot", "👍"));
    await deliver(fake.userReacts(messageId, "u_ann", "🎉"));
    expect(running.events).toMatchObject([{ type: "reaction", emoji: "🎉", target: { messageId, fromBot: false } }]);
    expect(running.events).toHaveLength(1);
  });
});

/** The `sha256=` header Acme sends for `event`. */
function signatureFor(event: AcmeWebhookEvent): string {
  return `sha256=${createHmac("sha256", fake.webhookSecret).update(JSON.stringify(event)).digest("hex")}`;
}
