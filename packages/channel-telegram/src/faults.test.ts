import { eventually, faults, startChannel, waitFor } from "@chorus/testkit";
import { describe, expect, it } from "vitest";
import { ANN, GROUP, isText, telegramSession } from "./fake-group.test-util.js";
import { telegramChannel } from "./index.js";

const SEND = { path: /\/sendMessage$/ };
const t = telegramSession();
const tooMany = (seconds: number) => ({
  ok: false,
  error_code: 429,
  description: `Too Many Requests: retry after ${seconds}`,
  parameters: { retry_after: seconds },
});

describe("Telegram failures", () => {
  it("429: waits out parameters.retry_after, then succeeds", async () => {
    const { instance } = await t.start();
    t.fake.server.inject(faults.rateLimit(SEND, 1, { body: tooMany(1) }));
    const began = Date.now();
    await instance.send({ id: String(GROUP) }, { text: "hello" });
    const [refused, accepted] = t.fake.server.requestsTo("POST", SEND.path);
    expect(refused?.status).toBe(429);
    expect(accepted?.status).toBe(200);
    expect((accepted?.at ?? 0) - (refused?.at ?? 0)).toBeGreaterThanOrEqual(950);
    expect(Date.now() - began).toBeGreaterThanOrEqual(950);
    expect(t.fake.messagesIn(GROUP).map((m) => m.text)).toEqual(["hello"]);
  });

  it("429 longer than maxRetryAfterMs fails at once with E_RATE_LIMITED and the wait", async () => {
    const { instance } = await t.start({ maxRetryAfterMs: 500 });
    t.fake.server.inject(faults.rateLimit(SEND, 30, { body: tooMany(30) }));
    await expect(instance.send({ id: String(GROUP) }, { text: "hello" })).rejects.toMatchObject({
      code: "E_RATE_LIMITED",
      retryAfterMs: 30_000,
    });
    expect(t.fake.server.requestsTo("POST", SEND.path)).toHaveLength(1);
  });

  it("5xx then success: retried (bounded), and a lasting 5xx is a retryable E_PLATFORM", async () => {
    const { instance } = await t.start({ retries: 2 });
    const body = { ok: false, error_code: 502, description: "Bad Gateway" };
    t.fake.server.inject(faults.serverError(SEND, { status: 502, body }));
    await instance.send({ id: String(GROUP) }, { text: "first" });
    expect(t.fake.server.requestsTo("POST", SEND.path).map((r) => r.status)).toEqual([502, 200]);

    t.fake.server.inject(faults.serverError(SEND, { status: 502, body, times: 3 }));
    await expect(instance.send({ id: String(GROUP) }, { text: "second" })).rejects.toMatchObject({
      code: "E_PLATFORM",
      retryable: true,
    });
    expect(t.fake.server.requestsTo("POST", SEND.path)).toHaveLength(5);
  });

  it("a wrong token is E_AUTH at start", async () => {
    const config = t.fake.config({ botToken: "1:wrong" });
    await expect(startChannel(telegramChannel, { config })).rejects.toMatchObject({ code: "E_AUTH" });
  });

  it("a token revoked while polling: status failed naming channels.telegram.botToken; running again once accepted", async () => {
    const { instance } = await t.start({ reconnectMinMs: 100, reconnectMaxMs: 200 });
    const revoked = { ok: false, error_code: 401, description: "Unauthorized" };
    t.fake.server.inject(
      faults.serverError({ path: /\/getUpdates$/ }, { status: 401, body: revoked, times: Infinity }),
    );
    await eventually(() =>
      expect(instance.status()).toMatchObject({
        state: "failed",
        detail: expect.stringContaining("Check channels.telegram.botToken"),
      }),
    );
    t.fake.server.clearFaults();
    await eventually(() => expect(instance.status()).toMatchObject({ state: "running" }));
  });

  it("timeoutMs: a call without an answer fails; getChat is retried, sendMessage is not (it may have arrived)", async () => {
    const { instance } = await t.start({ timeoutMs: 200, retries: 1 });
    t.fake.server.inject(faults.hang(SEND, { times: 1 }));
    await expect(instance.send({ id: String(GROUP) }, { text: "lost?" })).rejects.toMatchObject({
      code: "E_PLATFORM",
      message: expect.stringContaining("no answer within 200 ms"),
    });
    expect(t.fake.server.requestsTo("POST", SEND.path)).toHaveLength(1);

    t.fake.server.inject(faults.hang({ path: /\/getChat$/ }, { times: 1 }));
    const ref = await instance.send({ id: String(GROUP) }, { text: "target" });
    await instance.react(ref, { op: "add", emoji: "👍" });
    expect(t.fake.server.requestsTo("POST", /\/getChat$/)).toHaveLength(2);
    expect(t.fake.botReactions(GROUP, Number(ref.messageId))).toEqual(["👍"]);
  });

  it("the long poll may wait longer than timeoutMs: its own wait comes on top", async () => {
    const running = await t.start({ pollTimeoutMs: 1_000, timeoutMs: 200 });
    // Two polls answered empty after their full second: neither was cut off.
    await waitFor(() => t.fake.server.requestsTo("POST", /\/getUpdates$/).filter((r) => r.status === 200).length >= 2);
    expect(running.logs.at("warn")).toEqual([]);
    expect(running.instance.status()).toMatchObject({ state: "running" });
  });

  it("network drop: polling reports degraded, reconnects with backoff and delivers what was queued", async () => {
    // Backoff 200 → 400 ms: the degraded window is long enough to observe.
    const { instance } = await t.start({ reconnectMinMs: 200, reconnectMaxMs: 400 });
    t.fake.server.inject(faults.reset({ path: /\/getUpdates$/ }, { times: 3 }));
    // The polls after this are cut off without an answer, three times.
    t.fake.userSends({ chatId: GROUP, from: ANN, text: "before the drop" });
    await eventually(() => expect(instance.status()).toMatchObject({ state: "degraded" }));
    t.fake.userSends({ chatId: GROUP, from: ANN, text: "after the drop" });
    await t.channel?.waitForEvent(isText("after the drop"));
    expect(t.channel?.events.filter(isText("before the drop"))).toHaveLength(1);
    expect(instance.status()).toMatchObject({ state: "running" });
    const resets = t.fake.server.requestsTo("POST", /\/getUpdates$/).filter((r) => r.fault === "reset");
    expect(resets).toHaveLength(3);
  });
});
