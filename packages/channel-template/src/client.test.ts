import { ChorusError, parseRetryAfter, RateLimitedError } from "@chorus/core";
import { faults } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AcmeApiError, AcmeClient } from "./client.js";
import { acmeConfigSchema } from "./config.js";
import { createFakeAcme, type FakeAcme } from "./testing/index.js";
import type { AcmeMessage, AcmeUser } from "./wire.js";

let fake: FakeAcme;

beforeEach(async () => {
  fake = createFakeAcme();
  await fake.start();
  fake.addConversation({ id: "c_team", type: "group", name: "Team" });
});

afterEach(async () => {
  await fake.close();
});

function client(overrides: Record<string, unknown> = {}): AcmeClient {
  return new AcmeClient(acmeConfigSchema.parse(fake.config(overrides)));
}

/** The rejection of `promise`, which must be a ChorusError. */
async function failure(promise: Promise<unknown>): Promise<ChorusError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ChorusError);
  return error as ChorusError;
}

const me = { method: "GET", path: "/v1/me" };

describe("rate limits (429)", () => {
  it("waits out Retry-After, then succeeds", async () => {
    fake.server.inject(faults.rateLimit(me, 1));
    const user = await client().request<AcmeUser>("GET", "/v1/me");
    expect(user.id).toBe("u_bot");
    const [limited, retried] = fake.server.requestsTo("GET", "/v1/me");
    expect([limited?.status, retried?.status]).toEqual([429, 200]);
    // The recorded arrival times prove the wait; 50ms of slack for timer and clock granularity.
    expect((retried?.at ?? 0) - (limited?.at ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it("fails at once with E_RATE_LIMITED when Retry-After is longer than maxRetryAfterMs", async () => {
    fake.server.inject(faults.rateLimit(me, 120));
    const error = await failure(client({ maxRetryAfterMs: 5_000 }).request("GET", "/v1/me"));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ code: "E_RATE_LIMITED", retryable: true, retryAfterMs: 120_000 });
    expect(error.hint).toContain("120s");
    expect(fake.server.requestsTo("GET", "/v1/me")).toHaveLength(1);
  });

  it("gives up with E_RATE_LIMITED after the configured retries", async () => {
    fake.server.inject(faults.rateLimit(me, 0, { times: Number.POSITIVE_INFINITY }));
    const error = await failure(client({ retries: 2 }).request("GET", "/v1/me"));
    expect(error.code).toBe("E_RATE_LIMITED");
    expect(fake.server.requestsTo("GET", "/v1/me")).toHaveLength(3);
  });
});

describe("server errors and the network", () => {
  it("retries 5xx and succeeds, sending one message with one idempotency key", async () => {
    const post = { method: "POST", path: "/v1/conversations/:id/messages" };
    fake.server.inject(faults.serverError(post, { status: 503, times: 2 }));
    const sent = await client().request<AcmeMessage>("POST", "/v1/conversations/c_team/messages", {
      body: { text: "hi" },
    });
    const attempts = fake.server.requestsTo("POST", "/v1/conversations/c_team/messages");
    expect(attempts.map((r) => r.status)).toEqual([503, 503, 201]);
    const keys = new Set(attempts.map((r) => r.headers["idempotency-key"]));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(fake.messagesIn("c_team").map((m) => m.id)).toEqual([sent.id]);
  });

  it("fails with a retryable E_PLATFORM once the retries are spent", async () => {
    fake.server.inject(faults.serverError(me, { times: Number.POSITIVE_INFINITY }));
    const error = await failure(client({ retries: 1 }).request("GET", "/v1/me"));
    expect(error).toMatchObject({ code: "E_PLATFORM", retryable: true });
    expect(error.message).toContain("HTTP 500");
    expect(fake.server.requestsTo("GET", "/v1/me")).toHaveLength(2);
  });

  it("retries a dropped connection", async () => {
    fake.server.inject(faults.reset(me));
    expect((await client().request<AcmeUser>("GET", "/v1/me")).id).toBe("u_bot");
    expect(fake.server.requestsTo("GET", "/v1/me").map((r) => r.status)).toEqual([0, 200]);
  });

  it("turns an unreachable server into a retryable E_PLATFORM", async () => {
    const url = fake.url;
    await fake.close();
    const error = await failure(client({ baseUrl: url, retries: 0 }).request("GET", "/v1/me"));
    expect(error).toMatchObject({ code: "E_PLATFORM", retryable: true });
    expect(error.message).toContain("unreachable");
  });

  it("gives up on a request that never gets an answer after timeoutMs", async () => {
    fake.server.inject(faults.hang(me));
    const error = await failure(client({ retries: 0, timeoutMs: 200 }).request("GET", "/v1/me"));
    expect(error).toMatchObject({ code: "E_PLATFORM", retryable: true });
    expect(error.message).toContain("no answer within 200ms");
  });

  it("reports an unreadable answer as E_PLATFORM without retrying it", async () => {
    fake.server.inject(faults.malformed(me));
    const error = await failure(client().request("GET", "/v1/me"));
    expect(error).toMatchObject({ code: "E_PLATFORM", retryable: false });
    expect(error.message).toContain("unreadable");
    expect(fake.server.requestsTo("GET", "/v1/me")).toHaveLength(1);
  });
});

describe("refusals", () => {
  it("maps 401 to E_AUTH with a hint, and never retries it", async () => {
    const error = await failure(client({ token: "wrong" }).request("GET", "/v1/me"));
    expect(error).toBeInstanceOf(AcmeApiError);
    expect(error).toMatchObject({ code: "E_AUTH", retryable: false, status: 401, wireCode: "unauthorized" });
    expect(error.hint).toContain("channels.acme.token");
    expect(fake.server.requestsTo("GET", "/v1/me")).toHaveLength(1);
  });

  it("maps 404 to E_MESSAGE_NOT_FOUND", async () => {
    const error = await failure(client().request("GET", "/v1/messages/msg_404"));
    expect(error).toMatchObject({ code: "E_MESSAGE_NOT_FOUND", wireCode: "message_not_found", retryable: false });
  });

  it("maps 400 to E_INVALID_INPUT, keeping Acme's message", async () => {
    const error = await failure(
      client().request("POST", "/v1/conversations/c_team/messages", { body: { text: "x".repeat(4001) } }),
    );
    expect(error).toMatchObject({ code: "E_INVALID_INPUT", wireCode: "text_too_long" });
    expect(error.message).toContain("text exceeds 4000");
    expect(fake.server.requestsTo("POST", "/v1/conversations/c_team/messages")).toHaveLength(1);
  });
});

describe("parseRetryAfter", () => {
  it("reads delay-seconds, an HTTP date, and falls back to one second", () => {
    const now = Date.parse("2030-01-01T00:00:00Z");
    expect(parseRetryAfter("7", now)).toBe(7_000);
    expect(parseRetryAfter("Tue, 01 Jan 2030 00:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Mon, 31 Dec 2029 00:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBe(1_000);
    expect(parseRetryAfter("soon", now)).toBe(1_000);
  });
});
