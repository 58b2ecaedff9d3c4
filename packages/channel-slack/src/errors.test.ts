import { type ChorusError, isChorusError } from "@chorus/core";
import { faults, type RunningChannel, startChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { slackChannel } from "./index.js";
import { createFakeSlack, type FakeSlack } from "./testing/index.js";

const ANN = "U0ANN00001";
const TEAM = "C0TEAM0001";
let fake: FakeSlack;
let running: RunningChannel | undefined;

beforeEach(async () => {
  fake = createFakeSlack({ botToken: "xoxb-canary-errors-test-token-11" });
  await fake.start();
  fake.addUser({ id: ANN, name: "ann" });
  fake.addConversation({ id: TEAM, type: "channel", name: "team", members: [fake.bot.id, ANN] });
});

afterEach(async () => {
  await running?.stop();
  running = undefined;
  await fake.close();
});

const start = async () => {
  running = await startChannel(slackChannel, { config: fake.config({ retries: 2, timeoutMs: 1_000 }) });
  return running;
};
const startFailure = () =>
  start().then(
    () => undefined,
    (error: unknown) => error as ChorusError,
  );
/** Slack's answer to a refused call: HTTP 200 with ok: false. */
const refuse = (method: string, error: string) =>
  fake.server.inject({ kind: "status", status: 200, body: { ok: false, error }, match: { path: `/api/${method}` } });

describe("Slack's failures as typed errors", () => {
  it.each(["invalid_auth", "not_authed", "account_inactive", "token_revoked"])(
    "%s is E_AUTH naming the bot token, without the token",
    async (code) => {
      refuse("auth.test", code);
      const error = await startFailure();
      expect(isChorusError(error) && error.code).toBe("E_AUTH");
      expect(error?.message).toBe(`Slack refused auth.test: ${code}`);
      expect(error?.hint).toMatch(/channels\.slack\.botToken/);
      expect(JSON.stringify({ ...error, message: error?.message, hint: error?.hint })).not.toContain(fake.botToken);
    },
  );

  it("a revoked token (the fake answers token_revoked) fails start with E_AUTH", async () => {
    fake.revoked.add(fake.botToken);
    const error = await startFailure();
    expect(error).toMatchObject({ code: "E_AUTH", message: "Slack refused auth.test: token_revoked" });
  });

  it("retries a 5xx and succeeds, posting the message once", async () => {
    const { instance } = await start();
    fake.server.inject(faults.serverError({ path: "/api/chat.postMessage" }, { status: 503 }));
    await instance.send({ id: TEAM }, { text: "after a hiccup" });
    expect(fake.server.requestsTo("POST", "/api/chat.postMessage").map((r) => r.status)).toEqual([503, 200]);
    expect(fake.messagesIn(TEAM).map((m) => m.text)).toEqual(["after a hiccup"]);
  });

  it("retries Slack's own internal_error for reads, and does not retry other ok:false codes", async () => {
    const { instance } = await start();
    const ref = await instance.send({ id: TEAM }, { text: "x" });
    refuse("reactions.get", "internal_error");
    expect(await instance.listReactions?.(ref)).toEqual([]);
    refuse("reactions.get", "not_reactable");
    await expect(instance.listReactions?.(ref)).rejects.toMatchObject({ code: "E_PLATFORM", retryable: false });
    expect(fake.server.requestsTo("POST", "/api/reactions.get").length).toBe(3);
  });

  it("does not post again after the connection dropped mid-request, and is degraded until Slack answers again", async () => {
    const { instance } = await start();
    fake.server.inject(faults.reset({ path: "/api/chat.postMessage" }));
    const error = (await instance.send({ id: TEAM }, { text: "maybe sent" }).catch((e: unknown) => e)) as ChorusError;
    expect(error.code).toBe("E_PLATFORM");
    expect(error.message).toMatch(/^Slack unreachable \(chat\.postMessage\)/);
    expect(fake.server.requestsTo("POST", "/api/chat.postMessage")).toHaveLength(1);
    expect(instance.status()).toMatchObject({ state: "degraded", detail: error.message });
    await instance.send({ id: TEAM }, { text: "back" });
    expect(instance.status().state).toBe("running");
  });

  it("repeats an idempotent call after a network drop", async () => {
    const { instance } = await start();
    const ref = await instance.send({ id: TEAM }, { text: "x" });
    fake.server.inject(faults.reset({ path: "/api/reactions.get" }));
    expect(await instance.listReactions?.(ref)).toEqual([]);
    expect(fake.server.requestsTo("POST", "/api/reactions.get").map((r) => r.status)).toEqual([0, 200]);
  });

  it("calls an answer that is not JSON unreadable, and does not post again", async () => {
    const { instance } = await start();
    fake.server.inject(faults.malformed({ path: "/api/chat.postMessage" }, { body: "<html>502</html>" }));
    await expect(instance.send({ id: TEAM }, { text: "?" })).rejects.toMatchObject({
      code: "E_PLATFORM",
      message: "Slack sent an unreadable answer to chat.postMessage (not JSON)",
    });
    expect(fake.server.requestsTo("POST", "/api/chat.postMessage")).toHaveLength(1);
  });

  it("names the missing scope", async () => {
    const { instance } = await start();
    fake.server.inject({
      kind: "status",
      status: 200,
      body: { ok: false, error: "missing_scope", needed: "reactions:write", provided: "chat:write" },
      match: { path: "/api/reactions.add" },
    });
    const ref = await instance.send({ id: TEAM }, { text: "x" });
    await expect(instance.react(ref, { op: "add", emoji: "👍" })).rejects.toMatchObject({
      code: "E_AUTH",
      hint: "Add the missing scope (reactions:write) under OAuth & Permissions and reinstall the app.",
    });
  });
});
