import { hmacSha256Hex } from "@chorus/channel-kit";
import { type RunningChannel, startChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acmeChannel } from "./index.js";
import { createFakeAcme, type FakeAcme } from "./testing/index.js";
import { verifyWebhook, WEBHOOK_TOLERANCE_MS } from "./webhook.js";

const ann = { id: "u_ann", name: "Ann" };
let fake: FakeAcme;
let running: RunningChannel;

beforeEach(async () => {
  fake = createFakeAcme();
  await fake.start();
  fake.addConversation({ id: "c_team", type: "group", name: "Team", members: [fake.bot, ann] });
  running = await startChannel(acmeChannel, { config: fake.config() });
});

afterEach(async () => {
  await running.stop();
  await fake.close();
});

const texts = () => running.events.map((e) => (e.type === "message" ? e.text : e.type));
const lastStatus = () => fake.webhooks.posted.at(-1)?.status;
/** A correctly shaped delivery of a message by Ann, not yet posted. */
const delivery = (text: string) =>
  JSON.stringify(
    fake.webhooks.envelope("message.created", {
      conversation: { id: "c_team", type: "group" },
      message: {
        id: `msg_${text}`,
        conversation_id: "c_team",
        author: { id: "u_ann", name: "Ann" },
        text,
        created_at: new Date().toISOString(),
      },
    }),
  );

describe("the webhook", () => {
  it("registers itself with Acme at start, and emits what Acme delivers", async () => {
    expect(fake.webhooks.url).toBe(running.ctx.http.url("/webhook"));
    await fake.userSends({ conversationId: "c_team", author: "u_ann", text: "hello" });
    expect(lastStatus()).toBe(200);
    expect(texts()).toEqual(["hello"]);
  });

  it("drops the echo of the bot's own message", async () => {
    await running.instance.send({ id: "c_team" }, { text: "hello all" });
    await fake.webhooks.settled();
    expect(fake.webhooks.posted.map((p) => p.status)).toEqual([200]);
    expect(running.events).toEqual([]);
  });

  it("emits a redelivery with the same eventId and leaves dropping it to the host", async () => {
    await fake.userSends({ conversationId: "c_team", author: "u_ann", text: "ping" });
    expect(await fake.redeliverLast()).toBe(200);
    expect(texts()).toEqual(["ping"]);
    expect(running.duplicates.map((e) => e.eventId)).toEqual([running.events[0]?.eventId]);
  });

  it("refuses a delivery signed with another secret (401), emitting nothing and saying why in the log", async () => {
    expect(await fake.forge("transfer everything")).toBe(401);
    expect(running.events).toEqual([]);
    expect(running.logs.at("warn").map((r) => r.message)).toEqual([
      "acme: refused a webhook delivery: signature does not match",
    ]);
  });

  it("refuses a stale delivery, and a replay whose timestamp header was freshened", async () => {
    const body = delivery("old news");
    const sixMinutesAgo = Math.floor((Date.now() - 6 * 60_000) / 1000);
    expect(await fake.webhooks.post(body, { timestamp: sixMinutesAgo })).toBe(401);
    // The replay: yesterday's body and signature, today's timestamp.
    const signature = `sha256=${hmacSha256Hex(fake.webhookSecret, `${sixMinutesAgo}.${body}`)}`;
    const replay = await fetch(running.ctx.http.url("/webhook"), {
      method: "POST",
      headers: { "x-acme-timestamp": String(Math.floor(Date.now() / 1000)), "x-acme-signature": signature },
      body,
    });
    expect(replay.status).toBe(401);
    expect(running.events).toEqual([]);
    expect(running.logs.at("warn").map((r) => r.fields.reason)).toEqual([
      "stale X-Acme-Timestamp",
      "signature does not match",
    ]);
  });
});

describe("verifyWebhook", () => {
  const secret = "0123456789abcdef";
  const raw = Buffer.from('{"id":"dlv_1"}');
  const now = Date.parse("2026-03-02T09:00:00Z");
  const signed = (seconds: number, overrides: Record<string, string> = {}) =>
    new Headers({
      "x-acme-timestamp": String(seconds),
      "x-acme-signature": `sha256=${hmacSha256Hex(secret, `${seconds}.${raw}`)}`,
      ...overrides,
    });

  it("accepts a signature over <timestamp>.<body> within the tolerance, either way", () => {
    const edge = (now - WEBHOOK_TOLERANCE_MS) / 1000;
    expect(verifyWebhook(signed(now / 1000), raw, secret, now)).toBeUndefined();
    expect(verifyWebhook(signed(edge), raw, secret, now)).toBeUndefined();
    expect(verifyWebhook(signed(edge - 1), raw, secret, now)).toBe("stale X-Acme-Timestamp");
    expect(verifyWebhook(signed(now / 1000 + 301), raw, secret, now)).toBe("stale X-Acme-Timestamp");
  });

  it("refuses missing or malformed headers and a changed body", () => {
    const seconds = now / 1000;
    expect(verifyWebhook(new Headers(), raw, secret, now)).toBe("missing or malformed X-Acme-Timestamp");
    expect(verifyWebhook(signed(seconds, { "x-acme-timestamp": "yesterday" }), raw, secret, now)).toBe(
      "missing or malformed X-Acme-Timestamp",
    );
    expect(verifyWebhook(signed(seconds, { "x-acme-signature": "" }), raw, secret, now)).toBe(
      "signature does not match",
    );
    expect(verifyWebhook(signed(seconds), Buffer.from('{"id":"dlv_2"}'), secret, now)).toBe("signature does not match");
  });
});
