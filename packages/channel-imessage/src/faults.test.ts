import { faults, type RunningChannel, startChannel, waitFor } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { imessageChannel } from "./index.js";
import { createFakeBlueBubbles, type FakeBlueBubbles } from "./testing/index.js";

const GROUP = "iMessage;+;chat42";
let fake: FakeBlueBubbles;
let running: RunningChannel | undefined;

beforeEach(async () => {
  fake = createFakeBlueBubbles();
  await fake.start();
  fake.addChat({ guid: GROUP, participants: ["+15550001111"] });
});

afterEach(async () => {
  await running?.stop();
  running = undefined;
  await fake.close();
});

const TEXT = { method: "POST", path: "/api/v1/message/text" };

describe("iMessage failures", () => {
  it("429 with Retry-After is waited out, then the send succeeds", async () => {
    running = await startChannel(imessageChannel, { config: fake.config() });
    fake.server.inject(faults.rateLimit(TEXT, 1));
    const started = Date.now();
    await running.instance.send({ id: GROUP }, { text: "after the limit" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(fake.server.requestsTo("POST", TEXT.path).map((r) => r.status)).toEqual([429, 200]);
  });

  it("a long Retry-After fails at once with E_RATE_LIMITED carrying the wait", async () => {
    running = await startChannel(imessageChannel, { config: fake.config({ maxRetryAfterMs: 1000 }) });
    fake.server.inject(faults.rateLimit(TEXT, 30));
    await expect(running.instance.send({ id: GROUP }, { text: "x" })).rejects.toMatchObject({
      code: "E_RATE_LIMITED",
      retryAfterMs: 30_000,
    });
  });

  it("5xx then success is retried; 5xx beyond the retries is a retryable E_PLATFORM", async () => {
    running = await startChannel(imessageChannel, { config: fake.config({ retries: 1 }) });
    fake.server.inject(faults.serverError(TEXT, { status: 502 }));
    await running.instance.send({ id: GROUP }, { text: "second try" });
    expect(fake.messagesIn(GROUP).map((m) => m.text)).toContain("second try");
    fake.server.inject(faults.serverError(TEXT, { times: 2 }));
    await expect(running.instance.send({ id: GROUP }, { text: "x" })).rejects.toMatchObject({
      code: "E_PLATFORM",
      retryable: true,
    });
  });

  it("a wrong password fails start with E_AUTH", async () => {
    await expect(startChannel(imessageChannel, { config: fake.config({ password: "wrong" }) })).rejects.toMatchObject({
      code: "E_AUTH",
      hint: expect.stringContaining("password"),
    });
  });

  it("a network drop degrades the channel; it reconnects with backoff and registers the webhook", async () => {
    fake.server.inject(faults.reset({ path: "/api/v1/server/info" }, { times: 3 }));
    running = await startChannel(imessageChannel, { config: fake.config({ retries: 0, reconnectMinMs: 50 }) });
    expect(running.instance.status()).toMatchObject({
      state: "degraded",
      detail: expect.stringContaining("unreachable"),
    });
    expect(fake.state.webhooks).toEqual([]);
    await waitFor(() => running?.instance.status().state === "running", { timeoutMs: 5000 });
    expect(fake.state.webhooks).toHaveLength(1);
    expect(fake.server.requestsTo("GET", "/api/v1/server/info").length).toBeGreaterThanOrEqual(4);
  });

  it("a send that finds the server gone degrades the channel until a check succeeds", async () => {
    running = await startChannel(imessageChannel, { config: fake.config({ retries: 0, reconnectMinMs: 50 }) });
    fake.server.inject(faults.reset(TEXT));
    await expect(running.instance.send({ id: GROUP }, { text: "x" })).rejects.toMatchObject({ code: "E_PLATFORM" });
    await waitFor(() => running?.instance.status().state === "running", { timeoutMs: 5000 });
    expect(fake.server.requestsTo("GET", "/api/v1/server/info").length).toBeGreaterThanOrEqual(2);
  });
});
