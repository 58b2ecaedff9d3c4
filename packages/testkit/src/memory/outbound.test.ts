import { ChorusError, splitText } from "@chorus/core";
import { afterEach, describe, expect, it } from "vitest";
import { type RunningChannel, startChannel } from "../context.js";
import { createMemoryChannel, type MemoryChannelOptions } from "./channel.js";
import { createMemoryPlatform, type MemoryPlatform } from "./platform.js";

const ANN = { id: "u-ann", name: "Ann Lee", phone: "+14155550123" };
const MESSAGES = "/v1/conversations/:id/messages";

const opened: { platform: MemoryPlatform; channel?: RunningChannel }[] = [];

afterEach(async () => {
  for (const { platform, channel } of opened.splice(0)) {
    await channel?.stop();
    await platform.close();
  }
});

/** A started platform with a group `team` and a DM, and the memory channel running against it. */
async function open(options: MemoryChannelOptions = {}, token?: string) {
  const platform = createMemoryPlatform();
  const entry: (typeof opened)[number] = { platform };
  opened.push(entry);
  await platform.start();
  platform.addConversation({ id: "team", kind: "group", title: "Release team", members: [ANN] });
  platform.addConversation({ id: "dm-ann", kind: "direct", members: [ANN] });
  const channel = await startChannel(createMemoryChannel(options), {
    config: { baseUrl: platform.url, token: token ?? platform.token, pollWaitMs: 1000, retries: 0 },
    start: false,
  });
  entry.channel = channel;
  return { platform, channel, instance: channel.instance };
}

/** Bodies of the message posts the platform received, oldest first. */
const posted = (platform: MemoryPlatform) =>
  platform.server.requestsTo("POST", MESSAGES).map((r) => r.body as Record<string, unknown>);

describe("memory channel send", () => {
  it("sends a short text as one message and returns its ref", async () => {
    const { platform, instance } = await open();
    await instance.start();
    const ref = await instance.send({ id: "team" }, { text: "Release 1.4 is out 🚀" });
    const [message] = platform.messagesIn("team");
    expect(platform.messagesIn("team")).toHaveLength(1);
    expect(message).toMatchObject({ senderId: "bot", text: "Release 1.4 is out 🚀", mentions: [] });
    expect(ref).toEqual({
      channel: "memory",
      accountId: "default",
      conversationId: "team",
      messageId: message?.id,
      fromBot: true,
    });
    expect(posted(platform)).toEqual([{ text: "Release 1.4 is out 🚀" }]);
  });

  it("splits a long text at the plugin's limit on sensible boundaries, in order, returning the first part's ref", async () => {
    const { platform, instance } = await open({ maxTextLength: 50 });
    await instance.start();
    const text = [
      "The release is done. All checks passed.",
      "Next steps:\n- update the changelog\n- tell the support team",
      "Thanks everyone for the hard work this week, it was a long one!",
    ].join("\n\n");
    const ref = await instance.send({ id: "team" }, { text });

    const expected = [
      "The release is done. All checks passed.",
      "Next steps:\n- update the changelog",
      "- tell the support team",
      "Thanks everyone for the hard work this week, it",
      "was a long one!",
    ];
    expect(splitText(text, 50)).toEqual(expected);
    const messages = platform.messagesIn("team");
    expect(messages.map((m) => m.text)).toEqual(expected);
    expect(posted(platform).map((b) => b.text)).toEqual(expected);
    for (const message of messages) expect(message.text.length).toBeLessThanOrEqual(50);
    expect(ref.messageId).toBe(messages[0]?.id);
    expect(
      messages
        .map((m) => m.text)
        .join(" ")
        .split(/\s+/),
    ).toEqual(text.split(/\s+/));
  });

  it("sends the reply target with the first part only and the thread with every part", async () => {
    const { platform, instance } = await open({ maxTextLength: 40 });
    await instance.start();
    const question = platform.userSends({
      conversationId: "team",
      senderId: ANN.id,
      text: "Can you summarise?",
      threadId: "t-1",
    });
    const replyTo = await instance.resolveMessageRef({ id: "team", threadId: "t-1" }, question.id);
    const ref = await instance.send(
      { id: "team", threadId: "t-1" },
      { text: "Yes. The build is green. The docs are updated. We ship on Monday.", replyTo },
    );

    const bodies = posted(platform);
    expect(bodies.length).toBeGreaterThan(1);
    expect(bodies[0]).toMatchObject({ replyToId: question.id, threadId: "t-1" });
    for (const body of bodies.slice(1)) {
      expect(body).not.toHaveProperty("replyToId");
      expect(body.threadId).toBe("t-1");
    }
    const sent = platform.messagesIn("team").filter((m) => m.senderId === "bot");
    expect(sent[0]?.replyTo).toEqual({ id: question.id, senderId: ANN.id });
    expect(sent.slice(1).map((m) => m.replyTo)).toEqual(sent.slice(1).map(() => undefined));
    expect(sent.map((m) => m.threadId)).toEqual(sent.map(() => "t-1"));
    expect(ref).toMatchObject({ messageId: sent[0]?.id, threadId: "t-1", fromBot: true });
  });

  it("sends mentions with the first part", async () => {
    const { platform, instance } = await open();
    await instance.start();
    await instance.send({ id: "team" }, { text: "@Ann please review", mentions: [ANN.id] });
    expect(platform.messagesIn("team")[0]?.mentions).toEqual([ANN.id]);
  });

  it("fails with E_MESSAGE_NOT_FOUND for an unknown conversation and posts nothing there", async () => {
    const { platform, instance } = await open();
    await instance.start();
    const error = await instance.send({ id: "no-such-chat" }, { text: "hello?" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChorusError);
    expect(error).toMatchObject({ code: "E_MESSAGE_NOT_FOUND", retryable: false });
    expect(platform.messagesIn("no-such-chat")).toEqual([]);
    expect(platform.server.requestsTo("POST", MESSAGES).map((r) => r.status)).toEqual([404]);
  });
});

describe("memory channel typing", () => {
  it("switches the typing indicator on and off on the platform", async () => {
    const { platform, instance } = await open();
    await instance.start();
    await instance.setTyping({ id: "dm-ann" }, true);
    expect(platform.state.typing.get("dm-ann")).toBe(true);
    await instance.setTyping({ id: "dm-ann" }, false);
    expect(platform.state.typing.get("dm-ann")).toBe(false);
    const requests = platform.server.requestsTo("POST", "/v1/conversations/dm-ann/typing");
    expect(requests.map((r) => r.body)).toEqual([{ on: true }, { on: false }]);
  });
});

describe("memory channel resolveMessageRef", () => {
  it("completes the ref of a message in the conversation", async () => {
    const { platform, instance } = await open();
    await instance.start();
    const message = platform.userSends({ conversationId: "team", senderId: ANN.id, text: "ship it", threadId: "t-9" });
    expect(await instance.resolveMessageRef({ id: "team" }, message.id)).toEqual({
      channel: "memory",
      accountId: "default",
      conversationId: "team",
      messageId: message.id,
      threadId: "t-9",
      fromBot: false,
    });
  });

  it("marks the bot's own message", async () => {
    const { instance } = await open();
    await instance.start();
    const sent = await instance.send({ id: "team" }, { text: "noted" });
    expect(await instance.resolveMessageRef({ id: "team" }, sent.messageId)).toEqual(sent);
  });

  it("refuses a message of another conversation with E_MESSAGE_NOT_FOUND", async () => {
    const { platform, instance } = await open();
    await instance.start();
    const message = platform.userSends({ conversationId: "dm-ann", senderId: ANN.id, text: "private" });
    await expect(instance.resolveMessageRef({ id: "team" }, message.id)).rejects.toMatchObject({
      code: "E_MESSAGE_NOT_FOUND",
      message: expect.stringContaining("not in conversation team"),
    });
  });

  it("refuses an unknown message id with E_MESSAGE_NOT_FOUND", async () => {
    const { instance } = await open();
    await instance.start();
    const error = await instance.resolveMessageRef({ id: "team" }, "m-404").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChorusError);
    expect(error).toMatchObject({ code: "E_MESSAGE_NOT_FOUND" });
  });
});

describe("memory channel auth", () => {
  it("rejects start() with E_AUTH when the token is wrong", async () => {
    const { platform, instance } = await open({}, "stolen-token");
    const error = await instance.start().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChorusError);
    expect(error).toMatchObject({ code: "E_AUTH", retryable: false });
    expect(instance.status().state).not.toBe("running");
    const me = platform.server.requestsTo("GET", "/v1/me");
    expect(me.map((r) => [r.status, r.headers.authorization])).toEqual([[401, "Bearer stolen-token"]]);
    expect(platform.server.requestsTo("GET", "/v1/events")).toEqual([]);
  });

  it("sends the configured token as a bearer token", async () => {
    const { platform, instance } = await open();
    await instance.start();
    expect(instance.status()).toEqual({ state: "running", detail: "connected as Chorus" });
    expect(platform.server.requests.every((r) => r.headers.authorization === `Bearer ${platform.token}`)).toBe(true);
  });
});
