import { Redactor } from "@chorus/channel-kit";
import { ChorusError, RateLimitedError } from "@chorus/core";
import { faults } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SignalRpc } from "./client.js";
import { signalConfigSchema } from "./config.js";
import { type FakePerson, FakeSignal } from "./testing/index.js";

// Timeouts, retries and backoff are the kit's and tested there; this is signal-cli's own part:
// its JSON-RPC envelope, its error codes and the per-recipient results of a send.
let fake: FakeSignal;
let ann: FakePerson;
beforeEach(async () => {
  fake = new FakeSignal({ keepAliveMs: 0 });
  await fake.start();
  ann = fake.state.addPerson({ number: "+15550002222", name: "Ann" });
});
afterEach(async () => {
  await fake.close();
});

const rpc = (overrides: Record<string, unknown> = {}) =>
  new SignalRpc(signalConfigSchema.parse(fake.config({ retries: 0, ...overrides })), { redactor: new Redactor() });
const send = (client = rpc()) => client.call("send", { recipient: [ann.uuid], message: "hi" });

async function failure(promise: Promise<unknown>): Promise<ChorusError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ChorusError);
  return error as ChorusError;
}

describe("signal-cli's answers", () => {
  it("unwrap the JSON-RPC result, with the account in every call", async () => {
    expect(await rpc().call("version")).toEqual({ version: "0.14.6" });
    expect(fake.calls("version")).toEqual([{ account: fake.account }]);
  });

  it("map RATE_LIMIT_FAILURE to E_RATE_LIMITED with retryAfterSeconds, and wait a short one out", async () => {
    fake.failNext("send", { type: "RATE_LIMIT_FAILURE", retryAfterSeconds: 30 });
    const error = await failure(send());
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ code: "E_RATE_LIMITED", retryAfterMs: 30_000 });
    fake.failNext("send", { type: "RATE_LIMIT_FAILURE", retryAfterSeconds: 1 });
    await send(rpc({ retries: 1, maxRetryAfterMs: 2_000 }));
    expect(fake.sentTo(ann.uuid).map((m) => m.text)).toEqual(["hi"]);
  });

  it("leave a proxy's HTTP 429 with Retry-After to the kit", async () => {
    fake.server.inject(faults.rateLimit({ path: "/api/v1/rpc" }, 45));
    expect(await failure(send())).toMatchObject({ code: "E_RATE_LIMITED", retryAfterMs: 45_000 });
    fake.server.inject(faults.rateLimit({ path: "/api/v1/rpc" }, 1));
    await send(rpc({ retries: 1, maxRetryAfterMs: 2_000 }));
    expect(fake.sentTo(ann.uuid)).toHaveLength(1);
  });

  it("retry a NETWORK_FAILURE (nothing was sent) and a 5xx, then succeed", async () => {
    fake.failNext("send", { type: "NETWORK_FAILURE" });
    fake.server.inject(faults.serverError({ path: "/api/v1/rpc" }, { status: 502 }));
    await send(rpc({ retries: 2 }));
    expect(fake.calls("send")).toHaveLength(3);
    expect(fake.sentTo(ann.uuid)).toHaveLength(1);
    fake.failNext("send", { type: "NETWORK_FAILURE" });
    expect(await failure(send())).toMatchObject({
      code: "E_PLATFORM",
      retryable: true,
      platformCode: "NETWORK_FAILURE",
    });
  });

  it("say what to do about an unregistered number and a changed safety number", async () => {
    const unregistered = await failure(rpc().call("send", { recipient: ["+15559999999"], message: "?" }));
    expect(unregistered).toMatchObject({ code: "E_INVALID_INPUT", platformCode: "UNREGISTERED_FAILURE" });
    expect(unregistered.hint).toContain("+15559999999 has no Signal account");
    fake.failNext("send", { type: "IDENTITY_FAILURE" });
    const identity = await failure(send());
    expect(identity).toMatchObject({ code: "E_PLATFORM", retryable: false, platformCode: "IDENTITY_FAILURE" });
    expect(identity.message).toBe(`Signal: the safety number of ${ann.number} changed; nothing was sent`);
    expect(identity.hint).toBe(
      `Verify the new safety number, then trust it: signal-cli -a ${fake.account} trust -a ${ann.number}`,
    );
  });

  it("map an unknown account to E_AUTH with the login hint, and bad params to E_INVALID_INPUT", async () => {
    const multi = new FakeSignal({ mode: "multi" });
    await multi.start();
    try {
      const client = new SignalRpc(signalConfigSchema.parse(multi.config({ retries: 0 })), {});
      const error = await failure(client.call("listGroups", {}, { idempotent: true }));
      expect(error).toMatchObject({
        code: "E_AUTH",
        platformCode: "-32602",
        message: "signal-cli: Specified account does not exist",
      });
      expect(error.hint).toContain("chorus channels login signal");
    } finally {
      await multi.close();
    }
    fake.failNext("send", { code: -32602, message: "Invalid params" });
    expect(await failure(send())).toMatchObject({ code: "E_INVALID_INPUT", platformCode: "-32602" });
    const group = await failure(rpc().call("send", { groupId: "bm9wZQ==", message: "x" }));
    expect(group).toMatchObject({ code: "E_MESSAGE_NOT_FOUND", message: "signal-cli: Group not found: bm9wZQ==" });
  });

  it("do not resend a send that failed unexpectedly (it may have gone out), but repeat a harmless call", async () => {
    fake.failNext("send", { code: -32603, message: "Failed to send message: timeout (IOException)" }, 2);
    expect(await failure(send(rpc({ retries: 2 })))).toMatchObject({ code: "E_PLATFORM", retryable: false });
    expect(fake.calls("send")).toHaveLength(1);
    fake.failNext("sendTyping", { code: -32603, message: "boom" });
    await rpc({ retries: 1 }).call("sendTyping", { recipient: [ann.uuid] }, { idempotent: true });
    expect(fake.calls("sendTyping")).toHaveLength(2);
  });

  it("refuse an answer that is not JSON-RPC without resending, and a proxy's 401 as E_AUTH without its password", async () => {
    fake.server.inject(faults.malformed({ path: "/api/v1/rpc" }, { body: "<html>oops</html>" }));
    expect(await failure(send(rpc({ retries: 2 })))).toMatchObject({ code: "E_PLATFORM", retryable: false });
    const guarded = new FakeSignal({ basicAuth: { username: "u", password: "proxy-password-1234" } });
    await guarded.start();
    try {
      const wrong = { auth: { username: "u", password: "wrong-password-5678" } };
      const client = new SignalRpc(signalConfigSchema.parse(guarded.config({ retries: 0, ...wrong })), {
        redactor: new Redactor(["wrong-password-5678"]),
      });
      const error = await failure(client.call("version"));
      expect(error).toMatchObject({ code: "E_AUTH", status: 401 });
      expect(error.hint).toContain("channels.signal.auth");
      expect(JSON.stringify(error)).not.toContain("wrong-password-5678");
      const right = new SignalRpc(signalConfigSchema.parse(guarded.config({ retries: 0 })), {});
      expect(await right.call("version")).toEqual({ version: "0.14.6" });
    } finally {
      await guarded.close();
    }
  });
});
