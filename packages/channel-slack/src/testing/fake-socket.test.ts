import { SocketModeClient } from "@slack/socket-mode";
import { LogLevel } from "@slack/web-api";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFakeSlack, type FakeSlack } from "./index.js";

// Slack's Socket Mode retries, pinned against the real @slack/socket-mode client.
let fake: FakeSlack;
let client: SocketModeClient;
/** What the client saw of each envelope, and whether this test's app acknowledged it. */
let seen: { envelopeId: string; retryNum: number | undefined; retryReason: string | undefined }[];
let acking: (attempt: number) => boolean;

beforeEach(async () => {
  // Slack waits 3 s for an ack and retries at once, after 1 and 5 minutes; here it is quicker.
  fake = createFakeSlack({ mode: "socket", answerWithinMs: 200, retryDelaysMs: [0, 20, 40] });
  await fake.start();
  seen = [];
  acking = () => true;
  client = new SocketModeClient({
    appToken: fake.appToken,
    autoReconnectEnabled: false,
    logLevel: LogLevel.ERROR,
    clientOptions: { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } },
  });
  client.on("slack_event", async ({ ack, envelope_id, retry_num, retry_reason }) => {
    seen.push({ envelopeId: envelope_id, retryNum: retry_num, retryReason: retry_reason });
    if (acking(seen.length - 1)) await ack();
  });
  await client.start();
});

afterEach(async () => {
  await client.disconnect();
  await fake.close();
});

const payload = () => fake.http.envelope({ type: "message", channel: "C1", user: "U1", text: "hi", ts: "1.000100" });

describe("fake Slack Socket Mode", () => {
  it("sends an envelope not acked in time again as a retry: a new envelope_id, retry_attempt 1, retry_reason timeout", async () => {
    acking = (attempt) => attempt > 0;
    const sent = payload();
    expect(await fake.socket.deliver(sent)).toBe(true);
    expect(seen.map((s) => [s.retryNum, s.retryReason])).toEqual([
      [0, ""],
      [1, "timeout"],
    ]);
    expect(seen[0]?.envelopeId).not.toBe(seen[1]?.envelopeId);
    expect(fake.socket.envelopes.map((e) => e.payload)).toEqual([sent, sent]);
    expect(fake.socket.received.map((f) => f.envelope_id)).toEqual([seen[1]?.envelopeId]);
  });

  it("gives up after 3 retries: deliver resolves false", async () => {
    acking = () => false;
    expect(await fake.socket.deliver(payload())).toBe(false);
    expect(seen.map((s) => s.retryNum)).toEqual([0, 1, 2, 3]);
    expect(fake.socket.received).toEqual([]);
  });

  it("acknowledged at once: one envelope, no retry", async () => {
    expect(await fake.socket.deliver(payload())).toBe(true);
    expect(fake.socket.envelopes).toHaveLength(1);
  });
});
