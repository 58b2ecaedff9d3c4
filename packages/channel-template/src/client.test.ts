import { PlatformHttpError, Redactor } from "@chorus/channel-kit";
import { ChorusError, RateLimitedError } from "@chorus/core";
import { faults, outage } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAcmeClient } from "./client.js";
import { acmeConfigSchema } from "./config.js";
import { createFakeAcme, type FakeAcme } from "./testing/index.js";

// Timeouts, retries and backoff are the kit's and tested there; this is Acme's own part: its error body.
let fake: FakeAcme;
let messageId: string;

beforeEach(async () => {
  fake = createFakeAcme();
  await fake.start();
  fake.addConversation({ id: "c_team", type: "group" });
  messageId = (await fake.userSends({ conversationId: "c_team", author: "u_ann", text: "hi" })).id;
});

afterEach(async () => {
  await fake.close();
});

const client = (overrides: Record<string, unknown> = {}) =>
  createAcmeClient(acmeConfigSchema.parse(fake.config({ retries: 0, ...overrides })), { redactor: new Redactor() });

/** The rejection of `promise`, which must be a ChorusError. */
async function failure(promise: Promise<unknown>): Promise<ChorusError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ChorusError);
  return error as ChorusError;
}

describe("Acme's refusals", () => {
  it("keep Acme's code as platformCode and its message in the error", async () => {
    const path = `/v1/messages/${messageId}/reactions/heart`;
    await client().request({ method: "PUT", path });
    const error = await failure(client().request({ method: "PUT", path, operation: "react with heart" }));
    expect(error).toBeInstanceOf(PlatformHttpError);
    expect(error).toMatchObject({ code: "E_PLATFORM", retryable: false, status: 409, platformCode: "already_reacted" });
    expect(error.message).toBe(
      "Acme Chat refused to react with heart (HTTP 409 already_reacted): you already reacted so",
    );
  });

  it("map unknown_reaction to E_UNSUPPORTED_EMOJI", async () => {
    const error = await failure(client().request({ method: "PUT", path: `/v1/messages/${messageId}/reactions/👍` }));
    expect(error).toMatchObject({ code: "E_UNSUPPORTED_EMOJI", platformCode: "unknown_reaction", retryable: false });
  });

  it("map the not-found codes to E_MESSAGE_NOT_FOUND and text_too_long to E_INVALID_INPUT", async () => {
    const missing = await failure(client().request({ method: "GET", path: "/v1/messages/msg_404" }));
    expect(missing).toMatchObject({ code: "E_MESSAGE_NOT_FOUND", platformCode: "message_not_found" });
    const json = { text: "x".repeat(4001) };
    const long = await failure(client().request({ method: "POST", path: "/v1/conversations/c_team/messages", json }));
    expect(long).toMatchObject({ code: "E_INVALID_INPUT", platformCode: "text_too_long" });
    expect(long.message).toContain("text exceeds 4000");
  });

  it("map 401 to E_AUTH with a hint naming the config key, never showing the token", async () => {
    const token = "wrong-token-8c2d11";
    const redactor = new Redactor([token]);
    const acme = createAcmeClient(acmeConfigSchema.parse(fake.config({ token })), { redactor });
    const error = await failure(acme.request({ method: "GET", path: "/v1/me" }));
    expect(error).toMatchObject({ code: "E_AUTH", retryable: false, platformCode: "unauthorized" });
    expect(error.hint).toBe("Check channels.acme.token (Acme console → Bots).");
    expect(JSON.stringify(error)).not.toContain(token);
  });

  it("leave a rate limit to the kit, Retry-After included, although Acme names it too", async () => {
    fake.server.inject(faults.rateLimit({ path: "/v1/me" }, 30, { body: { error: "rate_limited" } }));
    const error = await failure(client().request({ method: "GET", path: "/v1/me" }));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ code: "E_RATE_LIMITED", retryAfterMs: 30_000 });
  });

  it("leave answers that are not Acme's to the kit (a proxy's error page)", async () => {
    fake.server.inject(outage("refuse", { path: "/v1/me" }));
    const refused = await failure(client().request({ method: "GET", path: "/v1/me" }));
    expect(refused).toMatchObject({ code: "E_PLATFORM", retryable: true, status: 503 });
    fake.heal();
    fake.server.inject(faults.serverError({ path: "/v1/me" }, { status: 502, body: "<html>Bad Gateway</html>" }));
    const proxied = await failure(client().request({ method: "GET", path: "/v1/me" }));
    expect(proxied).toMatchObject({ code: "E_PLATFORM", retryable: true, status: 502 });
    expect((proxied as PlatformHttpError).platformCode).toBeUndefined();
  });
});
