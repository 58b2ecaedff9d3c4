import { ChorusError } from "@chorus/core";
import { faults, type RunningChannel, startChannel, waitFor } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acmeChannel } from "./index.js";
import { createFakeAcme, type FakeAcme } from "./testing/index.js";

let fake: FakeAcme;
let running: RunningChannel;

beforeEach(async () => {
  fake = createFakeAcme();
  await fake.start();
  fake.addConversation({ id: "c_team", type: "group", name: "Team" });
  fake.addConversation({ id: "c_other", type: "group", name: "Other" });
  running = await startChannel(acmeChannel, { config: fake.config({ timeoutMs: 500 }) });
});

afterEach(async () => {
  await running.stop();
  await fake.close();
});

const fromBot = () => fake.messagesIn("c_team").filter((m) => m.author.id === "u_bot");
const messagesPath = "/v1/conversations/c_team/messages";

describe("start and status", () => {
  it("reports who it is connected as and where its webhook is", () => {
    expect(running.instance.status()).toEqual({
      state: "running",
      detail: `connected as Chorus; webhook ${running.hooksUrl}/hooks/acme/webhook`,
    });
    expect(running.instance.identity?.()).toEqual({ id: "u_bot", name: "Chorus", isBot: true });
  });

  it("fails to start with E_AUTH on a wrong token, saying so in its status without the token", async () => {
    const token = "revoked-token-4b1f9e";
    const wrong = await startChannel(acmeChannel, { config: fake.config({ token }), start: false });
    try {
      const error = await wrong.instance.start().catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "E_AUTH", hint: expect.stringContaining("channels.acme.token") });
      expect(wrong.instance.status()).toMatchObject({ state: "degraded", detail: expect.stringContaining("401") });
      expect(JSON.stringify([error, wrong.instance.status()])).not.toContain(token);
    } finally {
      await wrong.stop();
    }
  });

  it("shows degraded with the reason while Acme cannot be reached, and running once it can", async () => {
    fake.fault("hang");
    await expect(running.instance.setTyping({ id: "c_team" }, true)).rejects.toMatchObject({ code: "E_PLATFORM" });
    expect(running.instance.status()).toEqual({
      state: "degraded",
      detail: expect.stringContaining("Acme Chat unreachable"),
    });
    fake.heal();
    await running.instance.setTyping({ id: "c_team" }, true);
    expect(running.instance.status()).toMatchObject({ state: "running" });
  });
});

describe("send", () => {
  it("refuses to send before start, without sending anything", async () => {
    const idle = await startChannel(acmeChannel, { config: fake.config(), start: false });
    try {
      await expect(idle.instance.send({ id: "c_team" }, { text: "too early" })).rejects.toMatchObject({
        code: "E_DISABLED",
      });
      expect(fake.messagesIn("c_team")).toEqual([]);
    } finally {
      await idle.stop();
    }
  });

  it("sends a short text as one message and returns its ref", async () => {
    const ref = await running.instance.send({ id: "c_team" }, { text: "hello", mentions: ["u_ann"] });
    const [message] = fromBot();
    expect(message).toMatchObject({ text: "hello", mentions: ["u_ann"] });
    expect(ref).toEqual({
      channel: "acme",
      accountId: "default",
      conversationId: "c_team",
      messageId: message?.id,
      fromBot: true,
    });
  });

  it("splits text longer than 4000 characters on paragraphs, replying and mentioning with the first part only", async () => {
    const question = await fake.userSends({ conversationId: "c_team", author: "u_ann", text: "tell me everything" });
    const paragraphs = ["a".repeat(3000), "b".repeat(3000), "c".repeat(1500)];
    const replyTo = await running.instance.resolveMessageRef({ id: "c_team" }, question.id);
    const ref = await running.instance.send(
      { id: "c_team" },
      { text: paragraphs.join("\n\n"), replyTo, mentions: ["u_ann"] },
    );
    const sent = fromBot();
    expect(sent.map((m) => m.text)).toEqual(paragraphs);
    expect(sent.map((m) => m.reply_to?.id)).toEqual([question.id, undefined, undefined]);
    expect(sent.map((m) => m.mentions)).toEqual([["u_ann"], undefined, undefined]);
    expect(ref.messageId).toBe(sent[0]?.id);
  });

  it("retries a send that timed out with the same idempotency key, so Acme keeps one message", async () => {
    // The first attempt reaches Acme, but its answer comes after the client's 500 ms timeout.
    fake.server.inject(faults.delay({ method: "POST", path: messagesPath }, 800));
    await running.instance.send({ id: "c_team" }, { text: "once" });
    await waitFor(() => fake.server.requestsTo("POST", messagesPath).length === 2);
    const attempts = fake.server.requestsTo("POST", messagesPath);
    expect(attempts.map((r) => r.status).sort()).toEqual([200, 201]);
    expect(new Set(attempts.map((r) => r.headers["idempotency-key"])).size).toBe(1);
    expect(fromBot().map((m) => m.text)).toEqual(["once"]);
  });

  it("fails with E_MESSAGE_NOT_FOUND for a conversation Acme does not know", async () => {
    await expect(running.instance.send({ id: "c_gone" }, { text: "hi" })).rejects.toMatchObject({
      code: "E_MESSAGE_NOT_FOUND",
      platformCode: "conversation_not_found",
    });
  });
});

describe("typing", () => {
  it("turns the indicator on and off", async () => {
    await running.instance.setTyping({ id: "c_team" }, true);
    expect(fake.isTyping("c_team")).toBe(true);
    await running.instance.setTyping({ id: "c_team" }, false);
    expect(fake.isTyping("c_team")).toBe(false);
    const bodies = fake.server.requestsTo("POST", "/v1/conversations/c_team/typing").map((r) => r.body);
    expect(bodies).toEqual([{ on: true }, { on: false }]);
  });
});

describe("resolveMessageRef", () => {
  it("completes a ref for a message someone wrote", async () => {
    const message = await fake.userSends({ conversationId: "c_team", author: "u_ann", text: "hi" });
    expect(await running.instance.resolveMessageRef({ id: "c_team" }, message.id)).toEqual({
      channel: "acme",
      accountId: "default",
      conversationId: "c_team",
      messageId: message.id,
      fromBot: false,
    });
  });

  it("refuses an id from another conversation or one that does not exist", async () => {
    const elsewhere = await fake.userSends({ conversationId: "c_other", author: "u_ann", text: "elsewhere" });
    for (const messageId of [elsewhere.id, "msg_999"]) {
      const error = await running.instance.resolveMessageRef({ id: "c_team" }, messageId).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ChorusError);
      expect(error).toMatchObject({ code: "E_MESSAGE_NOT_FOUND" });
    }
  });
});
