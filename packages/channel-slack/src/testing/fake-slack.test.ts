import { readFileSync } from "node:fs";
import { createFakeServer, type FakeServer, faults, json, waitFor } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { verifySlackSignature } from "../webhook.js";
import { createFakeSlack, type FakeSlack } from "./index.js";

// The fake is the platform every test trusts, so its own rules are pinned here.
const ANN = "U0ANN00001";
const TEAM = "C0TEAM0001";
let fake: FakeSlack;

const documented = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../fixtures/${name}.json`, import.meta.url), "utf8"));
/** Every documented field is there with the documented type, nested (the fake may send more, as Slack does). */
function coversShape(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && (expected.length === 0 || coversShape(actual[0], expected[0]));
  }
  if (expected !== null && typeof expected === "object") {
    if (actual === null || typeof actual !== "object") return false;
    return Object.entries(expected).every(([key, value]) =>
      coversShape((actual as Record<string, unknown>)[key], value),
    );
  }
  return typeof actual === typeof expected;
}

const call = async (method: string, args: Record<string, string> = {}, token: string = fake.botToken) => {
  const response = await fetch(`${fake.apiUrl}${method}`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: new URLSearchParams(args).toString(),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
};

beforeEach(async () => {
  // Slack retries at once, after 1 and 5 minutes and waits 3 s for an answer; here it is quicker.
  fake = createFakeSlack({ mode: "http", retryDelaysMs: [0, 20, 40], answerWithinMs: 300 });
  await fake.start();
  fake.addUser({ id: ANN, name: "ann" });
  fake.addConversation({ id: TEAM, type: "channel", name: "team", members: [fake.bot.id, ANN] });
});

afterEach(() => fake.close());

describe("fake Slack Web API", () => {
  it("answers HTTP 200 with ok: false for Slack's errors", async () => {
    expect(await call("auth.test", {}, "xoxb-wrong")).toMatchObject({
      status: 200,
      body: { ok: false, error: "invalid_auth" },
    });
    expect((await call("auth.test", {}, "")).body).toEqual({ ok: false, error: "not_authed" });
    expect((await call("no.such.method")).body).toEqual({ ok: false, error: "unknown_method" });
    expect((await call("apps.connections.open")).body).toEqual({ ok: false, error: "not_allowed_token_type" });
    fake.revoked.add(fake.botToken);
    expect((await call("auth.test")).body).toEqual({ ok: false, error: "token_revoked" });
  });

  it("answers a rate limit with HTTP 429 and Retry-After", async () => {
    fake.rateLimit("chat.postMessage", 7);
    const limited = await call("chat.postMessage", { channel: TEAM, text: "x" });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("7");
    expect((await call("chat.postMessage", { channel: TEAM, text: "x" })).body.ok).toBe(true);
  });

  it("keeps one reaction per emoji and user, aliases included, and refuses unicode and unknown names", async () => {
    const { body } = await call("chat.postMessage", { channel: TEAM, text: "target" });
    const at = { channel: TEAM, timestamp: String(body.ts) };
    expect((await call("reactions.add", { ...at, name: "+1" })).body.ok).toBe(true);
    expect((await call("reactions.add", { ...at, name: "thumbsup" })).body.error).toBe("already_reacted");
    expect((await call("reactions.add", { ...at, name: "👍" })).body.error).toBe("invalid_name");
    expect((await call("reactions.add", { ...at, name: "partyparrot" })).body.error).toBe("invalid_name");
    expect((await call("reactions.remove", { ...at, name: "heart" })).body.error).toBe("no_reaction");
    expect((await call("reactions.add", { ...at, timestamp: "1.1", name: "heart" })).body.error).toBe(
      "message_not_found",
    );
    expect(fake.botReactions(TEAM, at.timestamp)).toEqual(["+1"]);
  });

  it("refuses a post where the bot is not a member, and text over Slack's limit", async () => {
    fake.addConversation({ id: "C0OTHER001", type: "channel", name: "other", members: [ANN] });
    expect((await call("chat.postMessage", { channel: "C0OTHER001", text: "x" })).body.error).toBe("not_in_channel");
    expect((await call("chat.postMessage", { channel: TEAM, text: "x".repeat(40_001) })).body.error).toBe(
      "msg_too_long",
    );
  });
});

describe("fake Slack events", () => {
  /** The app's side: records what Slack posts and answers like an app (the challenge for url_verification). */
  let app: FakeServer;
  const received = () => app.requestsTo("POST", "/events");

  beforeEach(async () => {
    app = createFakeServer();
    app.route("POST", "/events", (ctx) => json(200, { challenge: ctx.json<{ challenge?: string }>().challenge }));
    await app.start();
    expect(await fake.http.verify(`${app.url}/events`)).toBe(true);
    app.clearRequests();
    fake.http.posted.length = 0;
  });

  afterEach(() => app.close());

  const envelopes = () =>
    received().map((r) => JSON.parse(r.rawBody) as { event: Record<string, unknown>; event_id: string });

  it("signs each delivery like Slack (v0 HMAC of v0:<timestamp>:<body>)", async () => {
    await fake.userSends({ channel: TEAM, user: ANN, text: "hello" });
    for (const { headers, rawBody } of received()) {
      const verified = verifySlackSignature(
        new Headers(headers as Record<string, string>),
        Buffer.from(rawBody),
        fake.signingSecret,
        Date.now(),
      );
      expect(verified).toBeUndefined();
    }
  });

  it("sends a mention as two events, message and app_mention, for the same ts, shaped like Slack's examples", async () => {
    await fake.userSends({ channel: TEAM, user: ANN, text: `<@${fake.bot.id}> hi` });
    const [message, mention] = envelopes();
    expect([message?.event.type, mention?.event.type]).toEqual(["message", "app_mention"]);
    expect(message?.event.ts).toBe(mention?.event.ts);
    expect(message?.event_id).not.toBe(mention?.event_id);
    expect(coversShape(message, documented("message-channels"))).toBe(true);
    expect(coversShape(mention, documented("app-mention"))).toBe(true);
    expect(message?.event.blocks).toEqual([
      expect.objectContaining({
        type: "rich_text",
        elements: [
          {
            type: "rich_text_section",
            elements: [
              { type: "user", user_id: fake.bot.id },
              { type: "text", text: " hi" },
            ],
          },
        ],
      }),
    ]);
  });

  it("tells the app about its own posts and reactions, and redelivers with the retry headers and the same event_id", async () => {
    const { body } = await call("chat.postMessage", { channel: TEAM, text: "mine" });
    await call("reactions.add", { channel: TEAM, timestamp: String(body.ts), name: "eyes" });
    await fake.http.settled();
    const [post, reaction] = envelopes();
    expect(post?.event).toMatchObject({ type: "message", user: fake.bot.id, bot_id: fake.bot.bot_id, text: "mine" });
    expect(coversShape(reaction, documented("reaction-added"))).toBe(true);
    await fake.redeliverLast();
    expect(received().at(-1)?.headers["x-slack-retry-num"]).toBe("1");
    expect(envelopes().at(-1)?.event_id).toBe(reaction?.event_id);
  });

  const retries = () => received().map((r) => [r.headers["x-slack-retry-num"], r.headers["x-slack-retry-reason"]]);

  it("retries what was not answered 2xx, signing each attempt anew, with X-Slack-Retry-Num and -Reason", async () => {
    app.inject(faults.serverError({ path: "/events" }, { status: 503 }));
    await fake.userSends({ channel: TEAM, user: ANN, text: "hello" });
    await waitFor(() => received().length === 2);
    expect(retries()).toEqual([
      [undefined, undefined],
      ["1", "http_error"],
    ]);
    const [first, retry] = received();
    expect(retry?.rawBody).toBe(first?.rawBody);
    const verified = verifySlackSignature(
      new Headers(retry?.headers as Record<string, string>),
      Buffer.from(retry?.rawBody ?? ""),
      fake.signingSecret,
      Date.now(),
    );
    expect(verified).toBeUndefined();
    // The app has the retry before the fake has read its answer: wait for that too.
    await fake.http.settled();
    expect(fake.http.posted.map((p) => p.status)).toEqual([503, 200]);
  });

  it("gives up after 3 retries, and does not retry an answer with X-Slack-No-Retry: 1", async () => {
    app.inject(faults.serverError({ path: "/events" }, { status: 500, times: 4 }));
    await fake.userSends({ channel: TEAM, user: ANN, text: "doomed" });
    await waitFor(() => received().length === 4);
    await fake.http.settled();
    expect(retries().map(([num]) => num)).toEqual([undefined, "1", "2", "3"]);
    app.clearRequests();
    app.inject(faults.serverError({ path: "/events" }, { status: 400, headers: { "x-slack-no-retry": "1" } }));
    await fake.userSends({ channel: TEAM, user: ANN, text: "not again" });
    await fake.http.settled();
    expect(received()).toHaveLength(1);
  });

  it("counts an answer later than answerWithinMs as http_timeout and no connection as connection_failed", async () => {
    app.inject(faults.delay({ path: "/events" }, 600));
    await fake.userSends({ channel: TEAM, user: ANN, text: "slow app" });
    await waitFor(() => fake.http.posted.length === 2);
    expect(fake.http.posted.map((p) => [p.status, p.retry?.reason])).toEqual([
      [0, undefined],
      [200, "http_timeout"],
    ]);
    await app.close();
    fake.http.posted.length = 0;
    await fake.userSends({ channel: TEAM, user: ANN, text: "app down" });
    await waitFor(() => fake.http.posted.length === 4);
    expect(fake.http.posted.map((p) => [p.status, p.retry?.reason])).toEqual([
      [0, undefined],
      [0, "connection_failed"],
      [0, "connection_failed"],
      [0, "connection_failed"],
    ]);
    app = createFakeServer();
    await app.start();
  });

  it("never retries a forger's post", async () => {
    expect(await fake.forge("forged", `${app.url}/events`)).toBe(200);
    app.inject(faults.serverError({ path: "/events" }, { status: 401 }));
    expect(await fake.forge("forged", `${app.url}/events`)).toBe(401);
    await fake.http.settled();
    expect(received()).toHaveLength(2);
  });
});
