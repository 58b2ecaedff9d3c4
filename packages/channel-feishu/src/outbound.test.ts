import { faults } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_POST_REQUEST_BYTES, postContent } from "./outbound.js";
import { type FeishuHarness, requestLines, startFeishu } from "./start.test-util.js";

let h: FeishuHarness;

afterEach(async () => {
  await h?.close();
});

interface SendRequest {
  receive_id?: string;
  msg_type: string;
  content: string;
  uuid: string;
  reply_in_thread?: boolean;
}

const sends = () =>
  h.fake.server.requests
    .filter((r) => r.method === "POST" && /^\/open-apis\/im\/v1\/messages(\/[^/]+\/reply)?$/u.test(r.path))
    .map((r) => ({ path: r.path, body: r.body as SendRequest, bytes: Buffer.byteLength(r.rawBody) }));
const fromBot = (chatId: string) => h.fake.messagesIn(chatId).filter((m) => m.sender.sender_type === "app");

describe("sending", () => {
  it("posts the agent's Markdown as a post with one md element, into the chat", async () => {
    h = await startFeishu();
    const ref = await h.running.instance.send(
      { id: h.team.chat_id },
      { text: "**Done.** See [the plan](https://x.example)" },
    );
    const [sent] = sends();
    expect(requestLines(h.fake, /^\/open-apis\/im\/v1\/messages$/u)).toEqual([
      "POST /open-apis/im/v1/messages?receive_id_type=chat_id → 200",
    ]);
    expect(sent?.body).toEqual({
      receive_id: h.team.chat_id,
      msg_type: "post",
      content: postContent("**Done.** See [the plan](https://x.example)"),
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/u),
    });
    expect(JSON.parse(sent?.body.content ?? "")).toEqual({
      zh_cn: { content: [[{ tag: "md", text: "**Done.** See [the plan](https://x.example)" }]] },
    });
    const [message] = fromBot(h.team.chat_id);
    expect(ref).toEqual({
      channel: "feishu",
      accountId: "default",
      conversationId: h.team.chat_id,
      messageId: message?.message_id,
      fromBot: true,
    });
  });

  it("mentions people with Feishu's at tag", async () => {
    h = await startFeishu();
    await h.running.instance.send({ id: h.team.chat_id }, { text: "over to you", mentions: [h.ann.open_id] });
    expect(h.fake.textOf(fromBot(h.team.chat_id)[0] as never)).toBe(`<at user_id="${h.ann.open_id}"></at> over to you`);
  });

  it("answers with im.message.reply; only the first part of a long answer replies", async () => {
    h = await startFeishu();
    const question = await h.fake.userSends({ chatId: h.team.chat_id, from: h.ann, text: "tell me everything" });
    const replyTo = await h.running.instance.resolveMessageRef({ id: h.team.chat_id }, question.message_id);
    const paragraph = `${"lorem ipsum dolor sit amet ".repeat(40)}\n\n`;
    await h.running.instance.send({ id: h.team.chat_id }, { text: paragraph.repeat(35), replyTo });
    const paths = sends().map((s) => s.path);
    expect(paths[0]).toBe(`/open-apis/im/v1/messages/${question.message_id}/reply`);
    expect(paths.slice(1).every((p) => p === "/open-apis/im/v1/messages")).toBe(true);
    expect(fromBot(h.team.chat_id)[0]?.parent_id).toBe(question.message_id);
  });

  it("splits at Feishu's 30 KB request limit on paragraph boundaries, also for CJK text", async () => {
    h = await startFeishu();
    const paragraphs = Array.from({ length: 40 }, (_, i) => `第${i}段：${"飞书消息内容测试。".repeat(60)}`);
    const text = paragraphs.join("\n\n");
    await h.running.instance.send({ id: h.team.chat_id }, { text });
    const sent = sends();
    expect(sent.length).toBeGreaterThan(1);
    for (const { bytes } of sent) expect(bytes).toBeLessThanOrEqual(MAX_POST_REQUEST_BYTES);
    const texts = fromBot(h.team.chat_id).map((m) => h.fake.textOf(m));
    expect(texts.join("\n\n")).toBe(text);
    expect(texts.every((part) => part.endsWith("。"))).toBe(true);
  });

  it("sends one message when a retried request repeats it: the uuid stays the same", async () => {
    h = await startFeishu({ config: { timeoutMs: 400 } });
    // The first attempt is answered too late: the client gives up and retries; Feishu made the message once.
    h.fake.server.inject(faults.delay({ method: "POST", path: "/open-apis/im/v1/messages" }, 700));
    await h.running.instance.send({ id: h.team.chat_id }, { text: "once" });
    // The late first attempt is logged once it is answered.
    await expect.poll(() => sends().length).toBe(2);
    const uuids = sends().map((s) => s.body.uuid);
    expect(new Set(uuids).size).toBe(1);
    await expect.poll(() => fromBot(h.team.chat_id).map((m) => h.fake.textOf(m))).toEqual(["once"]);
  });
});

describe("topic threads", () => {
  it("replies inside the thread, to its first message, when the conversation is a thread", async () => {
    h = await startFeishu();
    const root = await h.fake.userSends({ chatId: h.team.chat_id, from: h.ann, text: "new topic", mentions: ["bot"] });
    const inThread = await h.fake.userSends({
      chatId: h.team.chat_id,
      from: h.bob,
      text: "in the thread",
      replyTo: root.message_id,
      inThread: true,
    });
    const event = await h.running.waitForEvent((e) => e.type === "message" && e.text === "in the thread");
    expect(event.conversation.threadId).toBe(inThread.thread_id);
    const ref = await h.running.instance.send(
      { id: h.team.chat_id, threadId: inThread.thread_id as string },
      { text: "noted" },
    );
    const [sent] = sends();
    expect(sent?.path).toBe(`/open-apis/im/v1/messages/${root.message_id}/reply`);
    expect(sent?.body.reply_in_thread).toBe(true);
    expect(ref.threadId).toBe(inThread.thread_id);
    expect(fromBot(h.team.chat_id)[0]?.thread_id).toBe(inThread.thread_id);
  });

  it("posts into a topic of a topic group, the topic's first message being the one to reply to", async () => {
    h = await startFeishu();
    const forum = h.fake.addChat({ name: "Forum", mode: "topic", members: [h.ann] });
    const topic = await h.fake.userSends({ chatId: forum.chat_id, from: h.ann, text: "a new topic" });
    expect(topic.thread_id).toMatch(/^omt_/u);
    await h.running.instance.send({ id: forum.chat_id, threadId: topic.thread_id as string }, { text: "first answer" });
    expect(sends().map((s) => [s.path, s.body.reply_in_thread])).toEqual([
      [`/open-apis/im/v1/messages/${topic.message_id}/reply`, true],
    ]);
    expect(fromBot(forum.chat_id)[0]?.thread_id).toBe(topic.thread_id);
  });

  it("refuses a thread it knows no message of", async () => {
    h = await startFeishu();
    await expect(
      h.running.instance.send({ id: h.team.chat_id, threadId: "omt_unknown" }, { text: "?" }),
    ).rejects.toMatchObject({
      code: "E_MESSAGE_NOT_FOUND",
    });
  });
});

describe("a reply whose message was withdrawn", () => {
  it("is sent as a plain message in the chat", async () => {
    h = await startFeishu();
    const question = await h.fake.userSends({ chatId: h.team.chat_id, from: h.ann, text: "never mind" });
    const replyTo = await h.running.instance.resolveMessageRef({ id: h.team.chat_id }, question.message_id);
    h.fake.recall(question.message_id);
    await h.running.instance.send({ id: h.team.chat_id }, { text: "too late", replyTo });
    expect(requestLines(h.fake, /^\/open-apis\/im\/v1\/messages/u).filter((l) => l.startsWith("POST"))).toEqual([
      `POST /open-apis/im/v1/messages/${question.message_id}/reply → 400`,
      "POST /open-apis/im/v1/messages?receive_id_type=chat_id → 200",
    ]);
    expect(fromBot(h.team.chat_id).map((m) => h.fake.textOf(m))).toEqual(["too late"]);
  });
});

describe("finding a message again", () => {
  it("mints a ref for a message of this chat, and refuses one from another chat", async () => {
    h = await startFeishu();
    const other = h.fake.addChat({ name: "Other", members: [h.ann] });
    const mine = await h.running.instance.send({ id: h.team.chat_id }, { text: "mine" });
    expect(await h.running.instance.resolveMessageRef({ id: h.team.chat_id }, mine.messageId)).toEqual(mine);
    const elsewhere = await h.fake.userSends({ chatId: other.chat_id, from: h.ann, text: "elsewhere" });
    await expect(
      h.running.instance.resolveMessageRef({ id: h.team.chat_id }, elsewhere.message_id),
    ).rejects.toMatchObject({ code: "E_MESSAGE_NOT_FOUND" });
    await expect(h.running.instance.resolveMessageRef({ id: h.team.chat_id }, "om_missing")).rejects.toMatchObject({
      code: "E_MESSAGE_NOT_FOUND",
    });
  });
});
