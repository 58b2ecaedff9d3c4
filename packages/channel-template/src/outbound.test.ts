import { ChorusError } from "@chorus/core";
import { type RunningChannel, startChannel } from "@chorus/testkit";
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
  running = await startChannel(acmeChannel, { config: fake.config() });
});

afterEach(async () => {
  await running.stop();
  await fake.close();
});

describe("start and status", () => {
  it("reports who it is connected as and where its webhook is", () => {
    expect(running.instance.status()).toEqual({
      state: "running",
      detail: `connected as Chorus; webhook ${running.hooksUrl}/hooks/acme/webhook`,
    });
  });

  it("fails to start with E_AUTH on a wrong token and says so in its status", async () => {
    const wrong = await startChannel(acmeChannel, { config: fake.config({ token: "revoked" }), start: false });
    try {
      await expect(wrong.instance.start()).rejects.toMatchObject({ code: "E_AUTH" });
      expect(wrong.instance.status()).toMatchObject({ state: "degraded", detail: expect.stringContaining("401") });
    } finally {
      await wrong.stop();
    }
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
    const [message] = fake.messagesIn("c_team");
    expect(message).toMatchObject({ text: "hello", mentions: ["u_ann"], author: { id: "u_bot" } });
    expect(ref).toEqual({
      channel: "acme",
      accountId: "default",
      conversationId: "c_team",
      messageId: message?.id,
      fromBot: true,
    });
  });

  it("splits text longer than 4000 characters on paragraph boundaries, replying with the first part only", async () => {
    const question = fake.userSends({ conversationId: "c_team", author: "u_ann", text: "tell me everything" });
    const questionId = question.data.message.id;
    const paragraphs = ["a".repeat(3000), "b".repeat(3000), "c".repeat(1500)];
    const replyTo = await running.instance.resolveMessageRef({ id: "c_team" }, questionId);
    const ref = await running.instance.send(
      { id: "c_team" },
      { text: paragraphs.join("\n\n"), replyTo, mentions: ["u_ann"] },
    );
    const sent = fake.messagesIn("c_team").filter((m) => m.author.id === "u_bot");
    expect(sent.map((m) => m.text)).toEqual(paragraphs);
    expect(sent.map((m) => m.reply_to?.id)).toEqual([questionId, undefined, undefined]);
    expect(sent.map((m) => m.mentions)).toEqual([["u_ann"], [], []]);
    expect(ref.messageId).toBe(sent[0]?.id);
  });

  it("fails with E_MESSAGE_NOT_FOUND for a conversation Acme does not know", async () => {
    await expect(running.instance.send({ id: "c_gone" }, { text: "hi" })).rejects.toMatchObject({
      code: "E_MESSAGE_NOT_FOUND",
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
    const event = fake.userSends({ conversationId: "c_team", author: "u_ann", text: "hi" });
    const id = event.data.message.id;
    expect(await running.instance.resolveMessageRef({ id: "c_team" }, id)).toEqual({
      channel: "acme",
      accountId: "default",
      conversationId: "c_team",
      messageId: id,
      fromBot: false,
    });
  });

  it("refuses an id from another conversation or one that does not exist", async () => {
    const event = fake.userSends({ conversationId: "c_other", author: "u_ann", text: "elsewhere" });
    const id = event.data.message.id;
    for (const messageId of [id, "msg_999"]) {
      const error = await running.instance.resolveMessageRef({ id: "c_team" }, messageId).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ChorusError);
      expect(error).toMatchObject({ code: "E_MESSAGE_NOT_FOUND" });
    }
  });
});
