import type { ChorusError } from "@chorus/core";
import { type RunningChannel, startChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { slackChannel } from "./index.js";
import { MAX_TEXT_LENGTH } from "./outbound.js";
import { createFakeSlack, type FakeSlack } from "./testing/index.js";

const ANN = "U0ANN00001";
const TEAM = "C0TEAM0001";
const DM = "D0ANNDM001";
let fake: FakeSlack;
let running: RunningChannel;

beforeEach(async () => {
  fake = createFakeSlack();
  await fake.start();
  fake.addUser({ id: ANN, name: "ann" });
  fake.addConversation({ id: TEAM, type: "channel", name: "team", members: [fake.bot.id, ANN] });
  fake.addConversation({ id: DM, type: "im", members: [fake.bot.id, ANN] });
  fake.addConversation({ id: "C0OUTSIDE1", type: "channel", name: "outside", members: [ANN] });
});

afterEach(async () => {
  await running.stop();
  await fake.close();
});

const start = async (extra: Record<string, unknown> = {}) => {
  running = await startChannel(slackChannel, { config: fake.config(extra) });
  return running.instance;
};
const posts = () =>
  fake.server.requestsTo("POST", "/api/chat.postMessage").map((r) => r.body as Record<string, string>);

describe("sending", () => {
  it("posts the agent's Markdown as mrkdwn and returns the ref of what Slack stored", async () => {
    const instance = await start();
    const ref = await instance.send(
      { id: TEAM },
      { text: "**Done**, see [the doc](https://x.example/a?b=1&c=2) & `a < b`" },
    );
    const [stored] = fake.messagesIn(TEAM);
    expect(stored?.text).toBe("*Done*, see <https://x.example/a?b=1&c=2|the doc> &amp; `a &lt; b`");
    expect(ref).toEqual({
      channel: "slack",
      accountId: "default",
      conversationId: TEAM,
      messageId: stored?.ts,
      fromBot: true,
    });
    expect(posts()[0]).toMatchObject({ channel: TEAM });
    expect(posts()[0]?.thread_ts).toBeUndefined();
  });

  it("splits at 4,000 characters on sensible boundaries; the first part's ref is returned", async () => {
    const instance = await start();
    const paragraph = `${"word ".repeat(300).trim()}.`;
    const text = Array.from({ length: 6 }, () => paragraph).join("\n\n");
    const ref = await instance.send({ id: TEAM }, { text });
    const stored = fake.messagesIn(TEAM);
    expect(stored.length).toBe(3);
    expect(stored.every((m) => m.text.length <= MAX_TEXT_LENGTH)).toBe(true);
    expect(stored.every((m) => m.text.endsWith("word."))).toBe(true);
    expect(ref.messageId).toBe(stored[0]?.ts);
  });

  it("keeps a code block a code block across parts", async () => {
    const instance = await start();
    const code = Array.from({ length: 600 }, (_, i) => `line ${i} = ${i} * 2;`).join("\n");
    await instance.send({ id: TEAM }, { text: `Here:\n\n\`\`\`ts\n${code}\n\`\`\`` });
    const parts = fake.messagesIn(TEAM).map((m) => m.text);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect((part.match(/```/g) ?? []).length % 2).toBe(0);
    expect(parts.slice(1).every((p) => p.startsWith("```\n"))).toBe(true);
  });

  it("replies in the conversation's thread, and with replyInThread starts one under a channel message", async () => {
    const instance = await start({ replyInThread: true });
    const asked = await fake.userSends({ channel: TEAM, user: ANN, text: "question" });
    const question = await instance.resolveMessageRef({ id: TEAM }, asked.ts);
    const reply = await instance.send({ id: TEAM }, { text: "answer", replyTo: question });
    expect(posts().at(-1)?.thread_ts).toBe(asked.ts);
    expect(reply.threadId).toBe(asked.ts);
    await instance.send({ id: TEAM, threadId: asked.ts }, { text: "more" });
    expect(posts().at(-1)?.thread_ts).toBe(asked.ts);
    const inDm = await fake.userSends({ channel: DM, user: ANN, text: "hi" });
    await instance.send({ id: DM }, { text: "hello", replyTo: await instance.resolveMessageRef({ id: DM }, inDm.ts) });
    expect(posts().at(-1)?.thread_ts).toBeUndefined();
  });

  it("without replyInThread answers top-level messages in the channel itself", async () => {
    const instance = await start();
    const asked = await fake.userSends({ channel: TEAM, user: ANN, text: "question" });
    await instance.send(
      { id: TEAM },
      { text: "answer", replyTo: await instance.resolveMessageRef({ id: TEAM }, asked.ts) },
    );
    expect(posts().at(-1)?.thread_ts).toBeUndefined();
  });

  it("mentions people with <@U…> in the first part", async () => {
    const instance = await start();
    await instance.send({ id: TEAM }, { text: "over to you", mentions: [ANN] });
    expect(fake.messagesIn(TEAM)[0]?.text).toBe(`<@${ANN}> over to you`);
  });

  it("tells the agent to invite the bot when it is not in the channel (not_in_channel)", async () => {
    const instance = await start();
    const error = (await instance.send({ id: "C0OUTSIDE1" }, { text: "hi" }).catch((e: unknown) => e)) as ChorusError;
    expect(error.code).toBe("E_AUTH");
    expect(error.hint).toMatch(/Invite the bot/);
  });

  it("has no typing indicator (declared typing: false), and setTyping asks Slack nothing", async () => {
    const instance = await start();
    expect(slackChannel.capabilities.typing).toBe(false);
    fake.server.clearRequests();
    await instance.setTyping({ id: TEAM }, true);
    expect(fake.server.requests).toEqual([]);
  });
});

describe("resolveMessageRef", () => {
  it("finds a channel message and a thread reply, and refuses an id that is not there", async () => {
    const instance = await start();
    const top = await fake.userSends({ channel: TEAM, user: ANN, text: "top" });
    const inThread = await fake.userSends({ channel: TEAM, user: ANN, text: "reply", thread_ts: top.ts });
    expect(await instance.resolveMessageRef({ id: TEAM }, top.ts)).toMatchObject({ messageId: top.ts, fromBot: false });
    expect(await instance.resolveMessageRef({ id: TEAM, threadId: top.ts }, inThread.ts)).toMatchObject({
      messageId: inThread.ts,
      threadId: top.ts,
    });
    for (const id of ["1.000009", "not-a-ts"]) {
      await expect(instance.resolveMessageRef({ id: TEAM }, id)).rejects.toMatchObject({ code: "E_MESSAGE_NOT_FOUND" });
    }
  });
});
