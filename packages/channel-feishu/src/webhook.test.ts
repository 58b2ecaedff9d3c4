import { createDecipheriv, createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { faults, waitFor } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type FeishuHarness, startFeishu } from "./start.test-util.js";
import { encryptEvent } from "./testing/index.js";
import { webhookPath } from "./webhook.js";

const ENCRYPT_KEY = "canary-encrypt-key-3f9a";
let h: FeishuHarness;

afterEach(async () => {
  await h.close();
});

/** The channel in webhook mode, with the fake's request URL pointed at its route. */
async function webhookChannel(encryptKey?: string, retryDelaysMs?: number[]): Promise<FeishuHarness> {
  const harness = await startFeishu({
    fake: { delivery: "webhook", ...(encryptKey ? { encryptKey } : {}), ...(retryDelaysMs ? { retryDelaysMs } : {}) },
  });
  harness.fake.webhooks.url = harness.running.ctx.http.url(webhookPath("default"));
  return harness;
}

const texts = () => h.running.events.map((e) => (e.type === "message" ? e.text : e.type));
const lastStatus = () => h.fake.webhooks.posted.at(-1)?.status;
const refusals = () => h.running.logs.at("warn").map((r) => r.fields.reason);
const challenge = (token: string) => JSON.stringify({ challenge: "ajls384kdjx98XX", token, type: "url_verification" });

describe("webhook mode", () => {
  it("listens on POST /hooks/feishu/<account>/events and nowhere else", async () => {
    h = await webhookChannel();
    expect(h.running.routes).toEqual(["POST /default/events"]);
    expect(h.fake.webhooks.url).toBe(`${h.running.hooksUrl}/hooks/feishu/default/events`);
    expect(h.running.instance.status().detail).toBe(
      `connected as Chorus (webhook ${h.running.hooksUrl}/hooks/feishu/default/events)`,
    );
    expect(h.fake.longConnection.handshakes).toBe(0);
  });

  it("answers Feishu's url_verification challenge only with the right verification token", async () => {
    h = await webhookChannel();
    const documented = readFileSync(new URL("./fixtures/url-verification.json", import.meta.url), "utf8");
    expect(await h.fake.webhooks.post(challenge(h.fake.verificationToken))).toMatchObject({
      status: 200,
      answer: '{"challenge":"ajls384kdjx98XX"}',
    });
    // The documented example carries the placeholder token "xxxxxx": not this app's.
    expect((await h.fake.webhooks.post(documented)).status).toBe(401);
    expect(refusals()).toEqual(["url_verification with a wrong verification token"]);
  });

  it("emits what Feishu delivers, once also when Feishu delivers it again", async () => {
    h = await webhookChannel();
    await h.fake.userSends({ chatId: h.team.chat_id, from: h.ann, text: "hello", mentions: ["bot"] });
    expect(lastStatus()).toBe(200);
    expect(await h.fake.webhooks.redeliverLast()).toBe(200);
    expect(texts()).toEqual(["@Chorus hello"]);
    expect(h.running.duplicates).toHaveLength(1);
  });

  it("refuses a delivery with a wrong verification token (401), emitting nothing", async () => {
    h = await webhookChannel();
    expect(await h.fake.forge("transfer everything")).toBe(401);
    expect(h.running.events).toEqual([]);
    expect(refusals()).toEqual(["wrong or missing verification token"]);
  });

  it("warns about a delivery it cannot read, and one that is not JSON", async () => {
    h = await webhookChannel();
    await h.fake.deliverUnparseable();
    expect(lastStatus()).toBe(200);
    expect((await h.fake.webhooks.post("{ not json")).status).toBe(400);
    expect(h.running.events).toEqual([]);
    const warnings = h.running.logs.at("warn").map((r) => r.message);
    expect(warnings[0]).toMatch(/^feishu: skipped a delivery it cannot read: unreadable im\.message\.receive_v1: /u);
    expect(warnings[1]).toMatch(/^feishu: refused a webhook delivery: the body is not a JSON object/u);
  });

  it("answers 503 while stopped, and Feishu's next push is answered once the channel runs", async () => {
    // Retries after 20 ms, then 0.5 s and 1 s: the channel is running again by the second.
    h = await webhookChannel(undefined, [20, 500, 1_000, 2_000]);
    const harness = h;
    await harness.running.instance.stop();
    await harness.fake.userSends({ chatId: harness.team.chat_id, from: harness.ann, text: "while you were out" });
    await waitFor(() => harness.fake.webhooks.posted.length >= 2);
    expect(harness.fake.webhooks.posted.map((p) => p.status)).toEqual([503, 503]);
    await harness.running.instance.start();
    await harness.running.waitForEvent((e) => e.type === "message");
    await harness.fake.webhooks.settled();
    expect(texts()).toEqual(["while you were out"]);
    expect(harness.fake.webhooks.posted.at(-1)).toMatchObject({ status: 200, retry: 2 });
  });
});

describe("webhook mode with an Encrypt Key", () => {
  it("decrypts and checks the signature of each delivery, and answers an encrypted challenge", async () => {
    h = await webhookChannel(ENCRYPT_KEY);
    await h.fake.userSends({ chatId: h.team.chat_id, from: h.ann, text: "secret plans" });
    expect(JSON.parse(h.fake.webhooks.posted[0]?.body ?? "")).toEqual({ encrypt: expect.any(String) });
    expect(texts()).toEqual(["secret plans"]);
    expect(await h.fake.webhooks.post(challenge(h.fake.verificationToken))).toMatchObject({
      status: 200,
      answer: '{"challenge":"ajls384kdjx98XX"}',
    });
  });

  it("refuses a delivery encrypted and signed with another key, unsigned, or changed after signing", async () => {
    h = await webhookChannel(ENCRYPT_KEY);
    expect(await h.fake.forge("forged")).toBe(401);
    const event = JSON.stringify(h.fake.events.envelope("im.message.receive_v1", {}));
    expect((await h.fake.webhooks.post(event, { unsigned: true })).status).toBe(401);
    // Signed correctly, then the body swapped for another encryption of the same event (a new IV).
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signedBody = JSON.stringify({ encrypt: encryptEvent(ENCRYPT_KEY, event) });
    const signature = createHash("sha256").update(`${timestamp}n0nce${ENCRYPT_KEY}${signedBody}`).digest("hex");
    const headers = {
      "x-lark-request-timestamp": timestamp,
      "x-lark-request-nonce": "n0nce",
      "x-lark-signature": signature,
    };
    const swapped = JSON.stringify({ encrypt: encryptEvent(ENCRYPT_KEY, event) });
    const response = await fetch(h.fake.webhooks.url as string, { method: "POST", headers, body: swapped });
    expect(response.status).toBe(401);
    expect(h.running.events).toEqual([]);
    expect(refusals()).toEqual([
      "encrypted delivery does not decrypt with the configured encryptKey",
      "missing X-Lark-Request-Timestamp, -Nonce or X-Lark-Signature",
      "signature does not match",
    ]);
  });

  it("refuses another key's ciphertext that happens to decrypt with valid padding under ours", async () => {
    h = await webhookChannel(ENCRYPT_KEY);
    // About one ciphertext in 256 of another key ends in valid PKCS#7 padding under ours: find one.
    const ours = createHash("sha256").update(ENCRYPT_KEY).digest();
    let encrypted = "";
    for (let attempt = 0; attempt < 100_000 && encrypted === ""; attempt++) {
      const candidate = encryptEvent("a forger's key", JSON.stringify({ schema: "2.0", attempt }));
      const raw = Buffer.from(candidate, "base64");
      try {
        const decipher = createDecipheriv("aes-256-cbc", ours, raw.subarray(0, 16));
        Buffer.concat([decipher.update(raw.subarray(16)), decipher.final()]);
        encrypted = candidate;
      } catch {
        // bad padding under our key: the usual case
      }
    }
    expect(encrypted).not.toBe("");
    const body = JSON.stringify({ encrypt: encrypted });
    const response = await fetch(h.fake.webhooks.url as string, { method: "POST", body });
    expect(response.status).toBe(401);
    expect(refusals()).toEqual(["encrypted delivery does not decrypt with the configured encryptKey"]);
    expect(h.running.events).toEqual([]);
  });

  it("refuses an encrypted delivery when no encryptKey is configured", async () => {
    h = await webhookChannel();
    const body = JSON.stringify({ encrypt: encryptEvent("some key", "{}") });
    const response = await fetch(h.fake.webhooks.url as string, { method: "POST", body });
    expect(response.status).toBe(401);
    expect(refusals()).toEqual(["an encrypted delivery arrived but no encryptKey is configured"]);
  });
});

describe("secrets in webhook mode", () => {
  it("never show the app secret, the verification token, the encrypt key or a tenant token", async () => {
    const secrets = {
      appSecret: "canary-app-secret-9d0e1f",
      verificationToken: "canary-verification-token-4b2c",
      encryptKey: ENCRYPT_KEY,
    };
    h = await startFeishu({ fake: { delivery: "webhook", ...secrets } });
    h.fake.webhooks.url = h.running.ctx.http.url(webhookPath("default"));
    await h.fake.userSends({ chatId: h.team.chat_id, from: h.ann, text: "hello" });
    await h.fake.forge("forged");
    await h.fake.webhooks.post(challenge("wrong"));
    h.fake.server.inject(
      faults.serverError({ path: "/open-apis/im/v1/messages" }, { status: 400, body: { code: 230001, msg: "bad" } }),
    );
    const failure = await h.running.instance.send({ id: h.team.chat_id }, { text: "x" }).catch((e: unknown) => e);
    const reported = [
      h.running.logs.text(),
      JSON.stringify(h.running.events),
      JSON.stringify(h.running.instance.status()),
      JSON.stringify(failure),
      String((failure as Error).stack),
    ].join("\n");
    expect(texts()).toEqual(["hello"]);
    for (const secret of [...Object.values(secrets), ...h.fake.tokens.issued]) expect(reported).not.toContain(secret);
  });
});
