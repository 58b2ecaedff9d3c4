import { Redactor } from "@chorus/channel-kit";
import { RateLimitedError } from "@chorus/core";
import { faults, startChannel } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { feishuChannel } from "./index.js";
import { type FeishuHarness, QUICK_CLIENT_CONFIG, requestLines, startFeishu } from "./start.test-util.js";
import { createFakeFeishu, type FakeFeishu } from "./testing/index.js";
import { TokenCache } from "./token-cache.js";

let h: FeishuHarness | undefined;
let fake: FakeFeishu | undefined;

afterEach(async () => {
  await h?.close();
  await fake?.close();
  h = undefined;
  fake = undefined;
});

const MESSAGES = "/open-apis/im/v1/messages";
const send = (harness: FeishuHarness, text = "hi") =>
  harness.running.instance.send({ id: harness.team.chat_id }, { text });

describe("credentials and the tenant token", () => {
  it("starts with E_AUTH and a hint when Feishu refuses the app secret, never showing it", async () => {
    fake = createFakeFeishu({ clientConfig: QUICK_CLIENT_CONFIG });
    await fake.start();
    const wrong = "wrong-app-secret-5e1f0c";
    const failure = await startChannel(feishuChannel, { config: fake.config({ appSecret: wrong }) }).catch((e) => e);
    expect(failure).toMatchObject({
      code: "E_AUTH",
      retryable: false,
      platformCode: "10014",
      hint: "Check channels.feishu.appId and appSecret (developer console → Credentials & Basic Info).",
    });
    expect((failure as Error).message).toBe(
      "Feishu refused to POST /open-apis/auth/v3/tenant_access_token/internal (HTTP 400, code 10014): app secret invalid",
    );
    expect(JSON.stringify(failure)).not.toContain(wrong);
  });

  it("fetches a fresh token when Feishu says the cached one is no longer valid", async () => {
    h = await startFeishu();
    h.fake.tokens.expireAll();
    h.fake.server.clearRequests();
    await send(h, "after the token expired");
    expect(requestLines(h.fake, /^\/open-apis\//u)).toEqual([
      "POST /open-apis/im/v1/messages?receive_id_type=chat_id → 400",
      "POST /open-apis/auth/v3/tenant_access_token/internal → 200",
      "POST /open-apis/im/v1/messages?receive_id_type=chat_id → 200",
    ]);
    expect(h.fake.tokens.issued).toHaveLength(2);
    const [first, second] = h.fake.server.requestsTo("POST", MESSAGES);
    expect(first?.headers.authorization).toBe(`Bearer ${h.fake.tokens.issued[0]}`);
    expect(second?.headers.authorization).toBe(`Bearer ${h.fake.tokens.issued[1]}`);
  });

  it("fails with E_AUTH when Feishu refuses the fresh token (the secret was rotated meanwhile)", async () => {
    h = await startFeishu();
    h.fake.tokens.expireAll();
    const refused = { code: 10014, msg: "app secret invalid" };
    h.fake.server.inject(
      faults.serverError({ path: "/open-apis/auth/v3/tenant_access_token/internal" }, { status: 400, body: refused }),
    );
    await expect(send(h)).rejects.toMatchObject({ code: "E_AUTH", platformCode: "10014", retryable: false });
    expect(h.fake.messagesIn(h.team.chat_id)).toEqual([]);
  });

  it("keeps the token until the expiry Feishu gave (less three minutes), then asks again", async () => {
    let now = 1_000_000;
    const cache = new TokenCache(new Redactor(), () => now);
    await cache.set("tenant", "t-abc123", now + 60_000, { namespace: "cli_x" });
    expect(await cache.get("tenant", { namespace: "cli_x" })).toBe("t-abc123");
    expect(await cache.get("tenant", { namespace: "cli_y" })).toBeUndefined();
    now += 60_000;
    expect(await cache.get("tenant", { namespace: "cli_x" })).toBeUndefined();
  });

  it("teaches every token to the redactor: a token is a secret too", async () => {
    const redactor = new Redactor();
    await new TokenCache(redactor).set("tenant", "t-g1044ab5c6d7e8f90", Date.now() + 1000);
    expect(redactor.text("Bearer t-g1044ab5c6d7e8f90")).not.toContain("t-g1044ab5c6d7e8f90");
  });
});

describe("rate limits", () => {
  it("maps Feishu's frequency limit (HTTP 400, code 99991400) to E_RATE_LIMITED with x-ogw-ratelimit-reset", async () => {
    h = await startFeishu({ config: { retries: 0 } });
    const limited = { code: 99991400, msg: "request trigger frequency limit" };
    const headers = { "x-ogw-ratelimit-limit": "50", "x-ogw-ratelimit-reset": "3" };
    h.fake.server.inject(faults.serverError({ path: MESSAGES }, { status: 400, body: limited, headers }));
    const failure = await send(h).catch((e) => e);
    expect(failure).toBeInstanceOf(RateLimitedError);
    expect(failure).toMatchObject({ code: "E_RATE_LIMITED", retryAfterMs: 3_000, retryable: true });
    expect((failure as Error).message).toContain("code 99991400");
  });

  it("waits out a short limit and sends (the send-message limit 230020, and HTTP 429 Retry-After)", async () => {
    h = await startFeishu({ config: { retries: 2 } });
    const perChat = { code: 230020, msg: "This operation triggers the frequency limit." };
    h.fake.server.inject(
      faults.serverError({ path: MESSAGES }, { status: 400, body: perChat, headers: { "retry-after": "0" } }),
    );
    h.fake.server.inject(faults.rateLimit({ path: MESSAGES }, 0));
    await send(h, "patience");
    expect(requestLines(h.fake, /^\/open-apis\/im\/v1\/messages$/u)).toEqual([
      "POST /open-apis/im/v1/messages?receive_id_type=chat_id → 400",
      "POST /open-apis/im/v1/messages?receive_id_type=chat_id → 429",
      "POST /open-apis/im/v1/messages?receive_id_type=chat_id → 200",
    ]);
  });
});

describe("server errors and refusals", () => {
  it("retries a 5xx and succeeds", async () => {
    h = await startFeishu();
    h.fake.server.inject(faults.serverError({ path: MESSAGES }, { status: 502, body: "<html>Bad Gateway</html>" }));
    await send(h, "second time lucky");
    expect(requestLines(h.fake, /^\/open-apis\/im\/v1\/messages$/u).map((l) => l.slice(-3))).toEqual(["502", "200"]);
  });

  it("fails a 5xx that does not heal with a retryable E_PLATFORM", async () => {
    h = await startFeishu({ config: { retries: 1 } });
    h.fake.server.inject(faults.serverError({ path: MESSAGES }, { status: 503, times: 5 }));
    await expect(send(h)).rejects.toMatchObject({ code: "E_PLATFORM", retryable: true, status: 503 });
  });

  it("tells to add the bot when it is not in the chat", async () => {
    h = await startFeishu();
    const chat = h.fake.state.chats.get(h.team.chat_id);
    if (chat) chat.botIn = false;
    const failure = await send(h).catch((e) => e);
    expect(failure).toMatchObject({ code: "E_PLATFORM", retryable: false, platformCode: "230002" });
    expect((failure as { hint: string }).hint).toMatch(
      /^Add the bot to the chat \(chat settings → Group bots → Add bot\)/u,
    );
  });

  it("maps a missing scope to E_AUTH naming what to add", async () => {
    h = await startFeishu();
    const body = { code: 99991672, msg: "Access denied. One of the following scopes is required: [im:message]" };
    h.fake.server.inject(faults.serverError({ path: MESSAGES }, { status: 400, body }));
    const failure = await send(h).catch((e) => e);
    expect(failure).toMatchObject({ code: "E_AUTH", platformCode: "99991672" });
    expect((failure as { hint: string }).hint).toMatch(/Permissions & Scopes/u);
  });

  it("reports an answer that is not Feishu's JSON as a non-retryable E_PLATFORM (the message may be sent)", async () => {
    h = await startFeishu();
    h.fake.server.inject(faults.malformed({ path: MESSAGES }, { body: "<html>portal</html>" }));
    await expect(send(h)).rejects.toMatchObject({ code: "E_PLATFORM", retryable: false });
  });
});
