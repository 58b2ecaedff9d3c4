import type { InboundEvent } from "@chorus/core";
import { waitFor } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type FeishuHarness, startFeishu } from "./start.test-util.js";
import { webhookPath } from "./webhook.js";

// The receiver against the fake Feishu through the real SDK (its EventDispatcher for webhooks,
// its WSClient for the long connection): what Feishu sees when a commit fails, and when an event
// cannot be read.
const NOT_COMMITTED =
  "feishu: the gateway could not commit an event; it is not acknowledged, so the platform delivers it again";
let h: FeishuHarness;

afterEach(async () => {
  await h.close();
});

const saying = (text: string) => (e: InboundEvent) => e.type === "message" && e.text === text;
const texts = () => h.running.events.map((e) => (e.type === "message" ? e.text : e.type));
const warnings = () => h.running.logs.at("warn").map((r) => r.message);
const eventIdOf = (body: string) => (JSON.parse(body) as { header: { event_id: string } }).header.event_id;

/** The channel in webhook mode (Feishu retries after 20, 50, 100 and 200 ms here; really 15 s, 5 min, 1 h, 6 h). */
async function webhookChannel(): Promise<FeishuHarness> {
  const harness = await startFeishu({ fake: { delivery: "webhook" } });
  harness.fake.webhooks.url = harness.running.ctx.http.url(webhookPath("default"));
  return harness;
}

describe("receive by webhook", () => {
  it("a commit that fails once: answered 503, so Feishu pushes the event again and it is committed once", async () => {
    h = await webhookChannel();
    h.running.refuseCommit(saying("refused once"));
    await h.fake.userSends({ chatId: h.team.chat_id, from: h.ann, text: "refused once" });
    await h.running.waitForEvent(saying("refused once"));
    await h.fake.webhooks.settled();
    const posted = h.fake.webhooks.posted;
    expect(posted.map((p) => [p.status, p.retry])).toEqual([
      [503, 0],
      [200, 1],
    ]);
    expect(eventIdOf(posted[1]?.body ?? "")).toBe(eventIdOf(posted[0]?.body ?? ""));
    expect(texts()).toEqual(["refused once"]);
    expect(h.running.refused).toHaveLength(1);
    expect(h.running.duplicates).toEqual([]);
    expect(warnings()).toEqual([NOT_COMMITTED]);
  });

  it("a commit that keeps failing: every push is answered 503 until Feishu gives up after its 4 retries", async () => {
    h = await webhookChannel();
    h.running.refuseCommit(saying("never committed"), 10);
    await h.fake.userSends({ chatId: h.team.chat_id, from: h.ann, text: "never committed" });
    await waitFor(() => h.fake.webhooks.posted.length === 5);
    await h.fake.webhooks.settled();
    expect(h.fake.webhooks.posted.map((p) => [p.status, p.retry])).toEqual([
      [503, 0],
      [503, 1],
      [503, 2],
      [503, 3],
      [503, 4],
    ]);
    expect(h.running.events).toEqual([]);
  });

  it("an event it cannot read: a warning naming the problem, and answered 200 (the same event again would not help)", async () => {
    h = await webhookChannel();
    await h.fake.deliverUnparseable();
    await h.fake.webhooks.settled();
    expect(h.fake.webhooks.posted.map((p) => p.status)).toEqual([200]);
    expect(warnings()).toEqual([
      expect.stringMatching(/^feishu: skipped a delivery it cannot read: unreadable im\.message\.receive_v1: /u),
    ]);
    expect(h.running.events).toEqual([]);
  });
});

describe("receive on the long connection", () => {
  it("a commit that fails once: the SDK answers code 500, Feishu pushes the event again and it is committed once", async () => {
    h = await startFeishu();
    h.running.refuseCommit(saying("refused once"));
    await h.fake.userSends({ chatId: h.team.chat_id, from: h.ann, text: "refused once" });
    expect(h.fake.longConnection.acks.map((a) => a.code)).toEqual([500, 200]);
    expect(texts()).toEqual(["refused once"]);
    expect(h.running.refused).toHaveLength(1);
    // The receiver says why once; the SDK's own line about the handler that threw is only a debug line.
    expect(warnings()).toEqual([NOT_COMMITTED]);
  });

  it("an event it cannot read: a warning naming the problem, and code 200", async () => {
    h = await startFeishu();
    await h.fake.deliverUnparseable();
    expect(h.fake.longConnection.acks.map((a) => a.code)).toEqual([200]);
    expect(warnings()).toEqual([
      expect.stringMatching(/^feishu: skipped a delivery it cannot read: unreadable im\.message\.receive_v1: /u),
    ]);
  });

  it("an event written while the instance is stopped (no long connection) is pushed once it connects again", async () => {
    h = await startFeishu();
    const harness = h;
    await harness.running.instance.stop();
    // The long connection closed with the instance: Feishu keeps the event for the next one.
    const delivered = harness.fake.userSends({ chatId: harness.team.chat_id, from: harness.ann, text: "meanwhile" });
    await harness.running.instance.start();
    await delivered;
    expect(texts()).toEqual(["meanwhile"]);
    expect(harness.fake.longConnection.acks.at(-1)?.code).toBe(200);
  });
});
