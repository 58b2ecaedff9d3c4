import { hmacSha256Hex } from "@chorus/channel-kit";
import { faults, type RunningChannel, startChannel, waitFor } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { slackChannel } from "./index.js";
import { ACK_WITHIN_MS } from "./receive.js";
import { createFakeSlack, type FakeSlack } from "./testing/index.js";
import { SIGNATURE_TOLERANCE_MS, verifySlackSignature } from "./webhook.js";

const ANN = "U0ANN00001";
const TEAM = "C0TEAM0001";
let fake: FakeSlack;
let running: RunningChannel;
let url: string;

beforeEach(async () => {
  // Slack retries at once, after 1 and after 5 minutes; here after 0, 100 and 500 ms.
  fake = createFakeSlack({ mode: "http", retryDelaysMs: [0, 100, 500] });
  await fake.start();
  fake.addUser({ id: ANN, name: "ann", real_name: "Ann Lee" });
  fake.addConversation({ id: TEAM, type: "channel", name: "team", members: [fake.bot.id, ANN] });
  running = await startChannel(slackChannel, { config: fake.config() });
  url = running.ctx.http.url("/default/events");
});

afterEach(async () => {
  await running.stop();
  await fake.close();
});

const texts = () => running.events.map((e) => (e.type === "message" ? e.text : e.type));

describe("the Events API endpoint", () => {
  it("answers Slack's url_verification with the challenge, and then receives events", async () => {
    expect(await fake.http.verify(url)).toBe(true);
    await fake.userSends({ channel: TEAM, user: ANN, text: "hello" });
    expect(fake.http.posted.at(-1)?.status).toBe(200);
    expect(texts()).toEqual(["hello"]);
  });

  it("gives one event for a mention Slack sends as app_mention and message, in either order", async () => {
    fake.http.requestUrl = url;
    await fake.userSends({ channel: TEAM, user: ANN, text: `<@${fake.bot.id}> first` });
    await fake.userSends({ channel: TEAM, user: ANN, text: `<@${fake.bot.id}> second`, order: "mention-first" });
    const bodies = fake.http.posted.map((p) => (JSON.parse(p.body) as { event: { type: string } }).event.type);
    expect(bodies).toEqual(["message", "app_mention", "app_mention", "message"]);
    expect(texts()).toEqual(["@Chorus first", "@Chorus second"]);
    expect(running.duplicates).toHaveLength(2);
    expect(running.events.every((e) => e.type === "message" && e.mentions.bot)).toBe(true);
  });

  it("processes Slack's retry of a delivery (X-Slack-Retry-Num, same event_id) once", async () => {
    fake.http.requestUrl = url;
    await fake.userSends({ channel: TEAM, user: ANN, text: "ping" });
    await fake.redeliverLast();
    expect(fake.http.posted.map((p) => p.status)).toEqual([200, 200]);
    expect(texts()).toEqual(["ping"]);
    expect(running.duplicates.map((e) => e.eventId)).toEqual([running.events[0]?.eventId]);
  });

  it("does not claim success when the commit takes longer than Slack's 3 seconds: 503 in time, and Slack's retry commits it once", async () => {
    fake.http.requestUrl = url;
    fake.server.inject(faults.delay({ path: "/api/users.info" }, ACK_WITHIN_MS + 1_000));
    await fake.userSends({ channel: TEAM, user: ANN, text: "slow lookup" });
    const [first] = fake.http.posted;
    expect(first?.status).toBe(503);
    expect(first?.elapsedMs).toBeLessThan(3_000);
    await waitFor(() => fake.http.posted.some((p) => p.status === 200), { timeoutMs: 5_000 });
    expect(fake.http.posted.map((p) => [p.status, p.retry])).toEqual([
      [503, undefined],
      [200, { num: 1, reason: "http_error" }],
    ]);
    expect(texts()).toEqual(["slow lookup"]);
    expect(running.logs.at("warn").map((r) => r.message)).toEqual([
      `slack: the gateway did not commit an event within ${ACK_WITHIN_MS} ms; it is not acknowledged, so Slack delivers it again`,
    ]);
  });

  it("refuses a forged request (401), emitting nothing and saying why in the log", async () => {
    expect(await fake.forge("transfer everything", url)).toBe(401);
    expect(running.events).toEqual([]);
    expect(running.logs.at("warn").map((r) => r.message)).toEqual([
      "slack: refused an Events API request: signature does not match",
    ]);
  });

  it("refuses a stale request and a replay whose timestamp header was freshened", async () => {
    const body = JSON.stringify(
      fake.http.envelope({ type: "message", channel: TEAM, user: ANN, text: "old", ts: "1.2" }),
    );
    const sixMinutesAgo = Math.floor((Date.now() - 6 * 60_000) / 1000);
    expect(await fake.http.post(body, { to: url, timestamp: sixMinutesAgo })).toBe(401);
    const signature = `v0=${hmacSha256Hex(fake.signingSecret, `v0:${sixMinutesAgo}:${body}`)}`;
    const replay = await fetch(url, {
      method: "POST",
      headers: { "x-slack-request-timestamp": String(Math.floor(Date.now() / 1000)), "x-slack-signature": signature },
      body,
    });
    expect(replay.status).toBe(401);
    expect(running.events).toEqual([]);
    expect(running.logs.at("warn").map((r) => r.fields.reason)).toEqual([
      "stale X-Slack-Request-Timestamp",
      "signature does not match",
    ]);
  });

  it("warns, naming what was wrong, about a signed request it cannot read, and acknowledges it", async () => {
    fake.http.requestUrl = url;
    await fake.deliverUnparseable();
    expect(await fake.http.post("{ not json", { to: url })).toBe(200);
    expect(fake.http.posted.map((p) => p.status)).toEqual([200, 200]);
    const warnings = running.logs.at("warn").map((r) => r.message);
    expect(warnings[0]).toMatch(
      /^slack: skipped a delivery it cannot read: unreadable message event: channel: .*; ts: /,
    );
    expect(warnings[1]).toMatch(/^slack: skipped a delivery it cannot read: .*JSON/);
    expect(running.events).toEqual([]);
  });

  it("warns when Slack says it dropped events for the app's rate limit", async () => {
    const body = {
      token: "x",
      type: "app_rate_limited",
      team_id: fake.team.id,
      minute_rate_limited: 1518467820,
      api_app_id: fake.bot.app_id,
    };
    expect(await fake.post(body, { to: url })).toBe(200);
    expect(running.logs.at("warn").map((r) => r.message)).toEqual([
      "slack: Slack dropped events: the app passed 30,000 events in an hour",
    ]);
  });

  it("answers 503 while stopped, and Slack's next retry is answered once the channel runs", async () => {
    fake.http.requestUrl = url;
    await running.instance.stop();
    await fake.userSends({ channel: TEAM, user: ANN, text: "while you were out" });
    await waitFor(() => fake.http.posted.length >= 2);
    expect(fake.http.posted.map((p) => p.status)).toEqual([503, 503]);
    await running.instance.start();
    await running.waitForEvent((e) => e.type === "message");
    await fake.http.settled();
    expect(texts()).toEqual(["while you were out"]);
    expect(fake.http.posted.at(-1)).toMatchObject({ status: 200, retry: { reason: "http_error" } });
  });
});

describe("verifySlackSignature", () => {
  it("verifies the signed request of Slack's 'Verifying requests from Slack' docs", () => {
    const secret = "8f742231b10e8888abcd99yyyzzz85a5";
    const body =
      "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c";
    const headers = new Headers({
      "X-Slack-Request-Timestamp": "1531420618",
      "X-Slack-Signature": "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503",
    });
    const at = 1531420618 * 1000;
    expect(verifySlackSignature(headers, Buffer.from(body), secret, at)).toBeUndefined();
    expect(verifySlackSignature(headers, Buffer.from(`${body}&x=1`), secret, at)).toBe("signature does not match");
    expect(verifySlackSignature(headers, Buffer.from(body), "another-secret-0000", at)).toBe(
      "signature does not match",
    );
    expect(verifySlackSignature(headers, Buffer.from(body), secret, Date.now())).toBe(
      "stale X-Slack-Request-Timestamp",
    );
  });

  it("accepts timestamps up to 5 minutes away either way, and refuses missing headers", () => {
    const secret = "0123456789abcdef0123";
    const raw = Buffer.from('{"type":"event_callback"}');
    const now = Date.parse("2026-03-02T09:00:00Z");
    const signed = (seconds: number) =>
      new Headers({
        "x-slack-request-timestamp": String(seconds),
        "x-slack-signature": `v0=${hmacSha256Hex(secret, `v0:${seconds}:${raw}`)}`,
      });
    const edge = (now - SIGNATURE_TOLERANCE_MS) / 1000;
    expect(verifySlackSignature(signed(edge), raw, secret, now)).toBeUndefined();
    expect(verifySlackSignature(signed(edge - 1), raw, secret, now)).toBe("stale X-Slack-Request-Timestamp");
    expect(verifySlackSignature(signed(now / 1000 + 301), raw, secret, now)).toBe("stale X-Slack-Request-Timestamp");
    expect(verifySlackSignature(new Headers(), raw, secret, now)).toBe(
      "missing or malformed X-Slack-Request-Timestamp",
    );
  });
});
