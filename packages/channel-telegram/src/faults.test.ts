import type { InboundMessageEvent } from "@chorus/core";
import { eventually, faults, type RunningChannel, startChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { telegramChannel } from "./index.js";
import { createFakeTelegram, type FakeTelegram } from "./testing/index.js";

const GROUP = -1001;
const ANN = { id: 501, is_bot: false as const, first_name: "Ann" };
const SEND = { path: /\/sendMessage$/ };
let fake: FakeTelegram;
let channel: RunningChannel | undefined;

beforeEach(async () => {
  fake = createFakeTelegram();
  await fake.start();
  fake.addChat({ id: GROUP, type: "supergroup", title: "Team" });
});

afterEach(async () => {
  await channel?.stop();
  channel = undefined;
  await fake.close();
});

const start = async (extra: Record<string, unknown> = {}) => {
  channel = await startChannel(telegramChannel, { config: fake.config(extra) });
  return channel;
};
const tooMany = (seconds: number) => ({
  ok: false,
  error_code: 429,
  description: `Too Many Requests: retry after ${seconds}`,
  parameters: { retry_after: seconds },
});
const isText = (text: string) => (e: { type: string }) =>
  e.type === "message" && (e as InboundMessageEvent).text === text;

describe("Telegram failures", () => {
  it("429: waits out parameters.retry_after, then succeeds", async () => {
    const { instance } = await start();
    fake.server.inject(faults.rateLimit(SEND, 1, { body: tooMany(1) }));
    const began = Date.now();
    await instance.send({ id: String(GROUP) }, { text: "hello" });
    const [refused, accepted] = fake.server.requestsTo("POST", SEND.path);
    expect(refused?.status).toBe(429);
    expect(accepted?.status).toBe(200);
    expect((accepted?.at ?? 0) - (refused?.at ?? 0)).toBeGreaterThanOrEqual(950);
    expect(Date.now() - began).toBeGreaterThanOrEqual(950);
    expect(fake.messagesIn(GROUP).map((m) => m.text)).toEqual(["hello"]);
  });

  it("429 longer than maxRetryAfterMs fails at once with E_RATE_LIMITED and the wait", async () => {
    const { instance } = await start({ maxRetryAfterMs: 500 });
    fake.server.inject(faults.rateLimit(SEND, 30, { body: tooMany(30) }));
    await expect(instance.send({ id: String(GROUP) }, { text: "hello" })).rejects.toMatchObject({
      code: "E_RATE_LIMITED",
      retryAfterMs: 30_000,
    });
    expect(fake.server.requestsTo("POST", SEND.path)).toHaveLength(1);
  });

  it("5xx then success: retried (bounded), and a lasting 5xx is a retryable E_PLATFORM", async () => {
    const { instance } = await start({ retries: 2 });
    const body = { ok: false, error_code: 502, description: "Bad Gateway" };
    fake.server.inject(faults.serverError(SEND, { status: 502, body }));
    await instance.send({ id: String(GROUP) }, { text: "first" });
    expect(fake.server.requestsTo("POST", SEND.path).map((r) => r.status)).toEqual([502, 200]);

    fake.server.inject(faults.serverError(SEND, { status: 502, body, times: 3 }));
    await expect(instance.send({ id: String(GROUP) }, { text: "second" })).rejects.toMatchObject({
      code: "E_PLATFORM",
      retryable: true,
    });
    expect(fake.server.requestsTo("POST", SEND.path)).toHaveLength(5);
  });

  it("a wrong token is E_AUTH at start", async () => {
    const config = fake.config({ botToken: "1:wrong" });
    await expect(startChannel(telegramChannel, { config })).rejects.toMatchObject({ code: "E_AUTH" });
  });

  it("network drop: polling reports degraded, reconnects with backoff and delivers what was queued", async () => {
    // Backoff 200 → 400 ms: the degraded window is long enough to observe.
    const { instance } = await start({ reconnectMinMs: 200, reconnectMaxMs: 400 });
    fake.server.inject(faults.reset({ path: /\/getUpdates$/ }, { times: 3 }));
    // The polls after this are cut off without an answer, three times.
    fake.userSends({ chatId: GROUP, from: ANN, text: "before the drop" });
    await eventually(() => expect(instance.status()).toMatchObject({ state: "degraded" }));
    fake.userSends({ chatId: GROUP, from: ANN, text: "after the drop" });
    await channel?.waitForEvent(isText("after the drop"));
    expect(channel?.events.filter(isText("before the drop"))).toHaveLength(1);
    expect(instance.status()).toMatchObject({ state: "running" });
    const resets = fake.server.requestsTo("POST", /\/getUpdates$/).filter((r) => r.fault === "reset");
    expect(resets).toHaveLength(3);
  });
});

describe("Telegram webhook mode", () => {
  const secretToken = "s3cret_token-ABC";

  it("sets the webhook with the secret and reaction updates; verified deliveries are emitted once", async () => {
    const running = await start({ webhookUrl: "https://bot.example.com/hooks/telegram/default", secretToken });
    const hook = `${running.hooksUrl}/hooks/telegram/default`;
    expect(fake.webhook).toEqual({ url: "https://bot.example.com/hooks/telegram/default", secret_token: secretToken });
    expect(fake.allowedUpdates).toEqual(["message", "message_reaction", "message_reaction_count"]);
    expect(fake.server.requestsTo("POST", /\/getUpdates$/)).toEqual([]);

    const update = fake.state.enqueue({ message: fake.state.postMessage(GROUP, ANN, { text: "via webhook" }) });
    expect((await fake.deliver(hook, update)).status).toBe(200);
    expect((await fake.deliver(hook, update)).status).toBe(200); // redelivery
    await running.waitForEvent(isText("via webhook"));
    expect(running.events.filter(isText("via webhook"))).toHaveLength(1);
  });

  it("a forged delivery (wrong or missing secret) is refused with 401 and nothing is processed", async () => {
    const running = await start({ webhookUrl: "https://bot.example.com/hooks/telegram/default", secretToken });
    const hook = `${running.hooksUrl}/hooks/telegram/default`;
    const forged = fake.state.enqueue({ message: fake.state.postMessage(GROUP, ANN, { text: "forged" }) });
    expect((await fake.deliver(hook, forged, { secretToken: "guess" })).status).toBe(401);
    expect((await fake.deliver(hook, forged, { secretToken: null })).status).toBe(401);
    const real = fake.state.enqueue({ message: fake.state.postMessage(GROUP, ANN, { text: "real" }) });
    await fake.deliver(hook, real);
    await running.waitForEvent(isText("real"));
    expect(running.events.filter(isText("forged"))).toEqual([]);
  });

  it("accounts get their own webhook path", async () => {
    channel = await startChannel(telegramChannel, {
      config: fake.config({ webhookUrl: "https://bot.example.com/hooks/telegram/work", secretToken }),
      accountId: "work",
    });
    const update = fake.state.enqueue({ message: fake.state.postMessage(GROUP, ANN, { text: "for work" }) });
    expect((await fake.deliver(`${channel.hooksUrl}/hooks/telegram/default`, update)).status).toBe(404);
    expect((await fake.deliver(`${channel.hooksUrl}/hooks/telegram/work`, update)).status).toBe(200);
    await channel.waitForEvent(isText("for work"));
  });
});
