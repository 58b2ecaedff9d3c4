import { faults, type RunningChannel, startChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BOT_API_PATH } from "./client.js";
import { nextcloudChannel } from "./index.js";
import { signatureMatches } from "./signing.js";
import { createFakeTalk, type FakeBot, type FakeTalk } from "./testing/index.js";

const ann = { id: "ann", name: "Ann" };
let fake: FakeTalk;
let bot: FakeBot;
let running: RunningChannel;

beforeEach(async () => {
  fake = createFakeTalk({ maxTextLength: 200 });
  await fake.start();
  bot = fake.installBot({ name: "Chorus", secret: "k".repeat(64), url: "https://gw/hooks/nextcloud/default" });
  fake.addRoom({ token: "team", name: "Team" });
  fake.setupBot(bot, "team");
  running = await startChannel(nextcloudChannel, { config: fake.config(bot, { maxTextLength: 200, retries: 2 }) });
});

afterEach(async () => {
  await running.stop();
  await fake.close();
});

const messagePath = `${BOT_API_PATH}/team/message`;

describe("send", () => {
  it("posts one signed OCS request and stores the message as the bot", async () => {
    const ref = await running.instance.send({ id: "team" }, { text: "Hello team" });
    const [request] = fake.server.requestsTo("POST", messagePath);
    expect(request?.headers).toMatchObject({ "ocs-apirequest": "true", accept: "application/json" });
    const random = request?.headers["x-nextcloud-talk-bot-random"] as string;
    expect(random.length).toBeGreaterThanOrEqual(32);
    // Signed over random + the message text only, not the JSON body.
    expect(
      signatureMatches(bot.secret, random, "Hello team", request?.headers["x-nextcloud-talk-bot-signature"] as string),
    ).toBe(true);
    const body = request?.body as { message: string; referenceId: string };
    expect(body.message).toBe("Hello team");
    expect(body.referenceId).toMatch(/^[0-9a-f]{64}$/);
    expect(fake.messagesIn("team")).toMatchObject([
      { actorId: bot.actorId, message: "Hello team", referenceId: body.referenceId },
    ]);
    expect(ref).toEqual({
      channel: "nextcloud",
      accountId: "default",
      conversationId: "team",
      messageId: `ref:${body.referenceId}`,
      fromBot: true,
      data: { referenceId: body.referenceId, pending: true },
    });
  });

  it("replies with replyTo (the numeric id) on the first part only, splitting at the limit", async () => {
    const hook = fake.userSends({ token: "team", user: ann, message: "tell me a long story" });
    const replyTo = await running.instance.resolveMessageRef({ id: "team" }, hook.object.id);
    const text = `${"word ".repeat(30).trim()}\n\n${"more ".repeat(30).trim()}`;
    await running.instance.send({ id: "team" }, { text, replyTo });
    const sent = fake.messagesIn("team").filter((m) => m.actorId === bot.actorId);
    expect(sent.length).toBe(2);
    expect(sent.every((m) => m.message.length <= 200)).toBe(true);
    expect(sent[0]?.replyTo).toBe(Number(hook.object.id));
    expect(sent[1]?.replyTo).toBeUndefined();
    expect(sent.map((m) => m.message).join("\n\n")).toBe(text);
  });

  it("refuses to reply to the bot's own sent message (Talk never tells its id) before any request", async () => {
    const own = await running.instance.send({ id: "team" }, { text: "first" });
    fake.server.clearRequests();
    await expect(running.instance.send({ id: "team" }, { text: "x", replyTo: own })).rejects.toMatchObject({
      code: "E_MESSAGE_NOT_FOUND",
    });
    expect(fake.server.requests).toEqual([]);
  });

  it("maps 401 (a wrong secret) to E_AUTH, 404 to E_MESSAGE_NOT_FOUND and 413 to E_INVALID_INPUT", async () => {
    const wrong = await startChannel(nextcloudChannel, { config: fake.config(bot, { secret: "z".repeat(64) }) });
    try {
      await expect(wrong.instance.send({ id: "team" }, { text: "hi" })).rejects.toMatchObject({ code: "E_AUTH" });
      expect(fake.server.requestsTo("POST", messagePath).at(-1)?.status).toBe(401);
    } finally {
      await wrong.stop();
    }
    fake.addRoom({ token: "empty" });
    // A conversation where the bot is not enabled: Talk cannot match the signature (401).
    await expect(running.instance.send({ id: "empty" }, { text: "hi" })).rejects.toMatchObject({ code: "E_AUTH" });
    const long = await startChannel(nextcloudChannel, { config: fake.config(bot, { maxTextLength: 500 }) });
    try {
      await expect(long.instance.send({ id: "team" }, { text: "y".repeat(300) })).rejects.toMatchObject({
        code: "E_INVALID_INPUT",
        details: { status: 413 },
      });
    } finally {
      await long.stop();
    }
    expect(fake.messagesIn("team")).toEqual([]);
  });
});

describe("faults", () => {
  it("waits out a 429 Retry-After, then succeeds", async () => {
    fake.server.inject(faults.rateLimit({ path: messagePath }, 1));
    const started = Date.now();
    await running.instance.send({ id: "team" }, { text: "after the limit" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(fake.server.requestsTo("POST", messagePath).map((r) => r.status)).toEqual([429, 201]);
    expect(fake.messagesIn("team")).toHaveLength(1);
  });

  it("fails with E_RATE_LIMITED when Retry-After is longer than maxRetryAfterMs", async () => {
    fake.server.inject(faults.rateLimit({ path: messagePath }, 60));
    await expect(running.instance.send({ id: "team" }, { text: "x" })).rejects.toMatchObject({
      code: "E_RATE_LIMITED",
      retryAfterMs: 60_000,
    });
  });

  it("retries a 5xx, then succeeds, with a fresh random and the same referenceId", async () => {
    fake.server.inject(faults.serverError({ path: messagePath }, { status: 503 }));
    await running.instance.send({ id: "team" }, { text: "hello" });
    const [first, second] = fake.server.requestsTo("POST", messagePath);
    expect([first?.status, second?.status]).toEqual([503, 201]);
    expect(first?.headers["x-nextcloud-talk-bot-random"]).not.toBe(second?.headers["x-nextcloud-talk-bot-random"]);
    expect((first?.body as { referenceId?: string } | undefined)?.referenceId).toBe(
      (second?.body as { referenceId?: string } | undefined)?.referenceId,
    );
  });

  it("does not send a message again after a dropped connection (it may have arrived); the next send goes through", async () => {
    fake.server.inject(faults.reset({ path: messagePath }));
    await expect(running.instance.send({ id: "team" }, { text: "lost" })).rejects.toMatchObject({
      code: "E_PLATFORM",
      retryable: true,
    });
    expect(fake.server.requestsTo("POST", messagePath)).toHaveLength(1);
    // Talk did not answer: the status says so, with the reason, until it answers again.
    expect(running.instance.status()).toMatchObject({
      state: "degraded",
      detail: expect.stringContaining("unreachable"),
    });
    await running.instance.send({ id: "team" }, { text: "after the drop" });
    expect(fake.messagesIn("team").map((m) => m.message)).toEqual(["after the drop"]);
    expect(running.instance.status().state).toBe("running");
  });

  it("gives up after the bounded retries with a retryable E_PLATFORM", async () => {
    fake.server.inject(faults.serverError({ path: messagePath }, { times: 3 }));
    await expect(running.instance.send({ id: "team" }, { text: "x" })).rejects.toMatchObject({
      code: "E_PLATFORM",
      retryable: true,
    });
    expect(fake.server.requestsTo("POST", messagePath)).toHaveLength(3);
  });
});
