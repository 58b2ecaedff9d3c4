import type { InboundEvent } from "@chorus/core";
import { faults, type RunningChannel, startChannel, waitFor } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { slackChannel } from "./index.js";
import { ACK_WITHIN_MS } from "./receive.js";
import { createFakeSlack, type FakeSlack, type FakeSlackOptions } from "./testing/index.js";

// The receiver against the fake Slack, through the real clients (fetch for the Events API,
// @slack/socket-mode for Socket Mode): what Slack sees when a commit fails, is slow, or when a
// body cannot be read.
const ANN = "U0ANN00001";
const TEAM = "C0TEAM0001";
const NOT_COMMITTED =
  "slack: the gateway could not commit an event; it is not acknowledged, so the platform delivers it again";
let fake: FakeSlack;
let running: RunningChannel;

afterEach(async () => {
  await running?.stop();
  await fake?.close();
});

/** The fake Slack in `mode`, retrying after 0, 50 and 200 ms (Slack: at once, 1 and 5 minutes), and the channel on it. */
async function start(mode: "http" | "socket", options: FakeSlackOptions = {}): Promise<void> {
  fake = createFakeSlack({ mode, retryDelaysMs: [0, 50, 200], ...options });
  await fake.start();
  fake.addUser({ id: ANN, name: "ann", real_name: "Ann Lee" });
  fake.addConversation({ id: TEAM, type: "channel", name: "team", members: [fake.bot.id, ANN] });
  running = await startChannel(slackChannel, { config: fake.config() });
  fake.http.requestUrl = running.ctx.http.url("/default/events");
}

const saying = (text: string) => (e: InboundEvent) => e.type === "message" && e.text === text;
const texts = () => running.events.map((e) => (e.type === "message" ? e.text : e.type));
const warnings = () => running.logs.at("warn").map((r) => r.message);

describe("receive over the Events API (HTTP)", () => {
  it("a commit that fails once: answered 503, so Slack retries (X-Slack-Retry-Num 1) and the event is committed once", async () => {
    await start("http");
    running.refuseCommit(saying("refused once"));
    await fake.userSends({ channel: TEAM, user: ANN, text: "refused once" });
    await running.waitForEvent(saying("refused once"));
    await fake.http.settled();
    expect(fake.http.posted.map((p) => [p.status, p.retry])).toEqual([
      [503, undefined],
      [200, { num: 1, reason: "http_error" }],
    ]);
    // The retry is the same body: the same event_id.
    expect(fake.http.posted[1]?.body).toBe(fake.http.posted[0]?.body);
    expect(running.refused.map((e) => e.eventId)).toEqual(running.events.map((e) => e.eventId));
    expect(texts()).toEqual(["refused once"]);
    expect(running.duplicates).toEqual([]);
    expect(warnings()).toEqual([NOT_COMMITTED]);
  });

  it("a commit that keeps failing: every attempt is answered 503 until Slack gives up after its 3 retries", async () => {
    await start("http");
    running.refuseCommit(saying("never committed"), 10);
    await fake.userSends({ channel: TEAM, user: ANN, text: "never committed" });
    await waitFor(() => fake.http.posted.length === 4);
    await fake.http.settled();
    expect(fake.http.posted.map((p) => [p.status, p.retry?.num])).toEqual([
      [503, undefined],
      [503, 1],
      [503, 2],
      [503, 3],
    ]);
    expect(running.events).toEqual([]);
  });

  it("a body it cannot read: a warning naming the problem, and acknowledged (Slack would only send the same bytes again)", async () => {
    await start("http");
    await fake.deliverUnparseable();
    expect(await fake.post({ token: "x", event: { type: "message" } })).toBe(200);
    await fake.http.settled();
    expect(fake.http.posted.map((p) => p.status)).toEqual([200, 200]);
    expect(warnings()).toEqual([
      expect.stringMatching(/^slack: skipped a delivery it cannot read: unreadable message event: channel: /),
      expect.stringMatching(/^slack: skipped a delivery it cannot read: unreadable Events API body: type: /),
    ]);
    expect(running.events).toEqual([]);
  });

  it("a message sharing several files is one event, acknowledged once it is committed", async () => {
    await start("http");
    const file = (id: string, name: string) => ({ id, name, title: name, mimetype: "application/pdf", size: 1200 });
    const envelope = fake.http.envelope({
      type: "message",
      subtype: "file_share",
      channel: TEAM,
      channel_type: "channel",
      user: ANN,
      text: "both reports",
      files: [file("F0FILE0001", "q1.pdf"), file("F0FILE0002", "q2.pdf")],
      ts: fake.state.nextTs(),
    });
    expect(await fake.post(envelope)).toBe(200);
    expect(texts()).toEqual(["both reports"]);
  });
});

describe("receive in Socket Mode", () => {
  it("a commit that fails once: the envelope is not acked, so Slack retries it (retry_attempt 1) and the event is committed once", async () => {
    // Slack waits 3 s for an ack; here 300 ms.
    await start("socket", { answerWithinMs: 300 });
    running.refuseCommit(saying("refused once"));
    expect(await fake.socket.deliver(fake.http.envelope(messageEvent("refused once")))).toBe(true);
    const [first, retry] = fake.socket.envelopes;
    expect([first?.retry_attempt, retry?.retry_attempt, retry?.retry_reason]).toEqual([0, 1, "timeout"]);
    expect(retry?.payload).toEqual(first?.payload);
    const acked = fake.socket.received.map((f) => f.envelope_id);
    expect(acked).toEqual([retry?.envelope_id]);
    expect(texts()).toEqual(["refused once"]);
    expect(running.refused).toHaveLength(1);
    expect(warnings()).toEqual([NOT_COMMITTED]);
  });

  it("an envelope it cannot read: a warning naming the problem, and acked", async () => {
    await start("socket", { answerWithinMs: 300 });
    await fake.deliverUnparseable();
    expect(fake.socket.received.map((f) => f.envelope_id)).toEqual(fake.socket.envelopes.map((e) => e.envelope_id));
    expect(fake.socket.envelopes).toHaveLength(1);
    expect(warnings()).toEqual([
      expect.stringMatching(/^slack: skipped a delivery it cannot read: unreadable message event: channel: /),
    ]);
  });

  it("a commit that takes longer than Slack's 3 s: no ack (no claim of success); Slack's retry is acked and the event committed once", async () => {
    await start("socket");
    fake.server.inject(faults.delay({ path: "/api/users.info" }, ACK_WITHIN_MS + 1_000));
    expect(await fake.socket.deliver(fake.http.envelope(messageEvent("slow")))).toBe(true);
    const [first, retry] = fake.socket.envelopes;
    expect(fake.socket.received.map((f) => f.envelope_id)).toEqual([retry?.envelope_id]);
    expect(first?.envelope_id).not.toBe(retry?.envelope_id);
    expect(texts()).toEqual(["slow"]);
    expect(warnings()).toEqual([
      `slack: the gateway did not commit an event within ${ACK_WITHIN_MS} ms; it is not acknowledged, so Slack delivers it again`,
    ]);
  }, 15_000);
});

/** Ann's `message` event in the team channel. */
function messageEvent(text: string): Record<string, unknown> {
  const ts = fake.state.nextTs();
  return { type: "message", channel: TEAM, channel_type: "channel", user: ANN, text, ts, event_ts: ts };
}
