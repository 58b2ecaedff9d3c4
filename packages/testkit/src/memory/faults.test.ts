import { ChorusError, RateLimitedError } from "@chorus/core";
import { afterEach, describe, expect, it } from "vitest";
import { type RunningChannel, startChannel } from "../context.js";
import { eventually, faults } from "../fake-server/index.js";
import { createMemoryChannel } from "./channel.js";
import { createMemoryPlatform, type MemoryPlatform } from "./platform.js";

const ANN = { id: "u-ann", name: "Ann Lee" };
const POST_MESSAGE = { method: "POST", path: "/v1/conversations/:id/messages" };

const opened: { platform: MemoryPlatform; channel?: RunningChannel }[] = [];

afterEach(async () => {
  for (const { platform, channel } of opened.splice(0)) {
    await channel?.stop();
    await platform.close();
  }
});

/** A started platform with a group `ops`, and the started memory channel with these client settings. */
async function open(config: { retries: number; maxRetryAfterMs?: number; pollWaitMs?: number }) {
  const platform = createMemoryPlatform();
  const entry: (typeof opened)[number] = { platform };
  opened.push(entry);
  await platform.start();
  platform.addConversation({ id: "ops", kind: "group", title: "Ops", members: [ANN] });
  const channel = await startChannel(createMemoryChannel(), {
    config: { baseUrl: platform.url, token: platform.token, pollWaitMs: 1000, ...config },
  });
  entry.channel = channel;
  return { platform, channel, instance: channel.instance };
}

/** Status codes (and faults) of the message posts, oldest first. */
const posts = (platform: MemoryPlatform) =>
  platform.server
    .requestsTo("POST", POST_MESSAGE.path)
    .map((r) => (r.fault ? `${r.status} ${r.fault}` : `${r.status}`));

describe("memory channel faults: rate limits", () => {
  it("waits out a 429 with Retry-After 0 and succeeds on the second request", async () => {
    const { platform, instance } = await open({ retries: 2 });
    platform.server.inject(faults.rateLimit(POST_MESSAGE, 0));
    const ref = await instance.send({ id: "ops" }, { text: "deploying now" });
    expect(posts(platform)).toEqual(["429 rateLimit", "200"]);
    expect(platform.messagesIn("ops").map((m) => [m.id, m.text])).toEqual([[ref.messageId, "deploying now"]]);
  });

  it("fails with E_RATE_LIMITED and the wait when Retry-After is longer than maxRetryAfterMs", async () => {
    const { platform, instance } = await open({ retries: 2, maxRetryAfterMs: 5_000 });
    platform.server.inject(faults.rateLimit(POST_MESSAGE, 30));
    const error = await instance.send({ id: "ops" }, { text: "deploying now" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ code: "E_RATE_LIMITED", retryAfterMs: 30_000, retryable: true });
    expect((error as ChorusError).details).toMatchObject({ retryAfterMs: 30_000 });
    expect(posts(platform)).toEqual(["429 rateLimit"]);
    expect(platform.messagesIn("ops")).toEqual([]);
  });

  it("gives up on short rate limits once the retries are spent", async () => {
    const { platform, instance } = await open({ retries: 1 });
    platform.server.inject(faults.rateLimit(POST_MESSAGE, 0, { times: 2 }));
    await expect(instance.send({ id: "ops" }, { text: "hi" })).rejects.toMatchObject({ code: "E_RATE_LIMITED" });
    expect(posts(platform)).toEqual(["429 rateLimit", "429 rateLimit"]);
  });
});

describe("memory channel faults: server errors", () => {
  it("retries a 5xx and succeeds", async () => {
    const { platform, instance } = await open({ retries: 1 });
    platform.server.inject(faults.serverError(POST_MESSAGE, { status: 503 }));
    const ref = await instance.send({ id: "ops" }, { text: "status update" });
    expect(posts(platform)).toEqual(["503 status", "200"]);
    expect(platform.messagesIn("ops").map((m) => m.id)).toEqual([ref.messageId]);
  });

  it("fails with a retryable E_PLATFORM after retries + 1 requests when the 5xx persists", async () => {
    const { platform, instance } = await open({ retries: 2 });
    platform.server.inject(faults.serverError(POST_MESSAGE, { times: 3 }));
    const error = await instance.send({ id: "ops" }, { text: "status update" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChorusError);
    expect(error).toMatchObject({ code: "E_PLATFORM", retryable: true, message: expect.stringContaining("HTTP 500") });
    expect(posts(platform)).toEqual(["500 status", "500 status", "500 status"]);
    expect(platform.messagesIn("ops")).toEqual([]);
  });

  it("does not retry a 4xx refusal", async () => {
    const { platform, instance } = await open({ retries: 2 });
    platform.server.inject(
      faults.serverError(POST_MESSAGE, { status: 400, body: { error: "bad_request", message: "no" } }),
    );
    await expect(instance.send({ id: "ops" }, { text: "x" })).rejects.toMatchObject({ code: "E_INVALID_INPUT" });
    platform.server.inject(
      faults.serverError(POST_MESSAGE, { status: 409, body: { error: "conflict", message: "no" } }),
    );
    await expect(instance.send({ id: "ops" }, { text: "x" })).rejects.toMatchObject({ code: "E_PLATFORM" });
    expect(posts(platform)).toEqual(["400 status", "409 status"]);
  });

  it("fails with E_PLATFORM naming the reply as unreadable when the body is malformed JSON", async () => {
    const { platform, instance } = await open({ retries: 2 });
    platform.server.inject(faults.malformed(POST_MESSAGE));
    const error = await instance.send({ id: "ops" }, { text: "status update" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChorusError);
    expect(error).toMatchObject({ code: "E_PLATFORM" });
    expect((error as Error).message).toMatch(/unreadable answer \(send a message to ops\)/);
    expect(posts(platform)).toEqual(["200 malformed"]);
  });

  it("does not send a message again when the connection broke after it went out (it may have arrived)", async () => {
    const { platform, instance } = await open({ retries: 1 });
    platform.server.inject(faults.reset(POST_MESSAGE));
    const error = await instance.send({ id: "ops" }, { text: "still there?" }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "E_PLATFORM", retryable: true });
    expect(posts(platform)).toEqual(["0 reset"]);
  });

  it("retries a typing call after a dropped connection (repeating it is harmless)", async () => {
    const { platform, instance } = await open({ retries: 1 });
    platform.server.inject(faults.reset({ method: "POST", path: "/v1/conversations/:id/typing" }));
    await instance.setTyping({ id: "ops" }, true);
    expect(platform.state.typing.get("ops")).toBe(true);
  });
});

describe("memory channel faults: the event poller", () => {
  const EVENTS = { method: "GET", path: "/v1/events" };
  const WAIT = { timeoutMs: 3000 };

  it("degrades while the long poll fails, then recovers and still delivers every message", async () => {
    // Short long polls, so a fault injected now hits one of the next polls.
    const { platform, channel, instance } = await open({ retries: 0, pollWaitMs: 50 });
    const delivered = (id: string) => channel.waitForEvent((e) => e.type === "message" && e.ref.messageId === id, 3000);
    let down = false;
    platform.server.inject(faults.reset({ ...EVENTS, where: () => down }, { times: Infinity }));

    const before = platform.userSends({ conversationId: "ops", senderId: ANN.id, text: "before the outage" });
    await delivered(before.id);
    expect(instance.status().state).toBe("running");

    down = true;
    await eventually(() => {
      expect(instance.status()).toMatchObject({ state: "degraded", detail: expect.stringContaining("unreachable") });
    }, WAIT);
    const since = platform.server.requests.length;
    const during = platform.userSends({ conversationId: "ops", senderId: ANN.id, text: "during the outage" });
    // A poll made after the message was written still fails: it is not delivered yet.
    await platform.server.waitForRequest({ ...EVENTS, where: (r) => r.fault === "reset" }, { since, timeoutMs: 3000 });
    expect(channel.events.some((e) => e.type === "message" && e.ref.messageId === during.id)).toBe(false);

    down = false;
    await delivered(during.id);
    await eventually(() => expect(instance.status().state).toBe("running"), WAIT);
    const after = platform.userSends({ conversationId: "ops", senderId: ANN.id, text: "after the outage" });
    await delivered(after.id);

    expect(channel.events.map((e) => (e.type === "message" ? e.text : e.type))).toEqual([
      "before the outage",
      "during the outage",
      "after the outage",
    ]);
  });

  it("reports degraded when the platform answers the poll with 5xx, and recovers", async () => {
    const { platform, channel, instance } = await open({ retries: 0, pollWaitMs: 50 });
    platform.server.inject(faults.serverError(EVENTS, { status: 502, times: 2 }));
    await eventually(() => {
      expect(instance.status()).toMatchObject({ state: "degraded", detail: expect.stringContaining("HTTP 502") });
    }, WAIT);
    await eventually(() => expect(instance.status().state).toBe("running"), WAIT);
    expect(platform.server.faults).toEqual([]);
    const later = platform.userSends({ conversationId: "ops", senderId: ANN.id, text: "later" });
    await channel.waitForEvent((e) => e.type === "message" && e.ref.messageId === later.id, 3000);
    expect(platform.server.requestsTo("GET", EVENTS.path).filter((r) => r.status === 502)).toHaveLength(2);
  });
});
