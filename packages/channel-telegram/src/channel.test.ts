import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { InboundMessageEvent } from "@chorus/core";
import { eventually, type RunningChannel, startChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { telegramChannel } from "./index.js";
import { createFakeTelegram, type FakeTelegram, mentionEntities } from "./testing/index.js";

const GROUP = -1001;
const FORUM = -1003;
const ANN = { id: 501, is_bot: false as const, first_name: "Ann" };
let fake: FakeTelegram;
let channel: RunningChannel;

beforeEach(async () => {
  fake = createFakeTelegram();
  await fake.start();
  fake.addChat({ id: GROUP, type: "supergroup", title: "Team" });
  fake.addChat({ id: FORUM, type: "supergroup", title: "Dev", is_forum: true });
  channel = await startChannel(telegramChannel, { config: fake.config() });
});

afterEach(async () => {
  await channel.stop();
  await fake.close();
});

const isMessage =
  (text: string) =>
  (e: { type: string }): e is InboundMessageEvent =>
    e.type === "message" && (e as InboundMessageEvent).text === text;
const methods = () => fake.server.requests.map((r) => r.path.split("/").at(-1));

describe("Telegram over long polling", () => {
  it("starts with getMe → deleteWebhook → getUpdates asking for reaction updates too", async () => {
    await fake.server.waitForRequest({ path: /\/getUpdates$/ });
    expect(methods().slice(0, 3)).toEqual(["getMe", "deleteWebhook", "getUpdates"]);
    expect(fake.allowedUpdates).toEqual(["message", "message_reaction", "message_reaction_count"]);
    expect(channel.instance.identity?.()).toEqual({ id: String(fake.bot.id), name: "Chorus", isBot: true });
    expect(channel.instance.status()).toMatchObject({
      state: "running",
      detail: expect.stringContaining("@chorus_test_bot"),
    });
  });

  it("delivers a group mention and confirms it with the next offset", async () => {
    const text = "hi @chorus_test_bot";
    const sent = fake.userSends({ chatId: GROUP, from: ANN, text, entities: mentionEntities(text) });
    const event = await channel.waitForEvent(isMessage(text));
    expect(event).toMatchObject({ conversation: { id: String(GROUP), kind: "group" }, mentions: { bot: true } });
    // Only a getUpdates with offset = update_id + 1 confirms (removes) an update on Telegram's side.
    await eventually(() => expect(fake.state.pending).toEqual([]));
    expect(sent.message_id).toBe(Number(event.ref.messageId));
  });

  it("reactions from people arrive as reaction events on the bot's message", async () => {
    const ref = await channel.instance.send({ id: String(GROUP) }, { text: "Pasta at 7." });
    fake.userReacts(GROUP, Number(ref.messageId), ANN, ["👍"]);
    const event = await channel.waitForEvent((e) => e.type === "reaction");
    // The target names the message; that the bot wrote it, the gateway knows from its message index.
    expect(event).toMatchObject({
      emoji: "👍",
      action: "added",
      actor: { id: "501" },
      target: { conversationId: String(GROUP), messageId: ref.messageId, data: { chatId: String(GROUP) } },
    });
  });

  it("sends long text in 4096-character parts, replying with the first one only", async () => {
    const question = fake.userSends({ chatId: GROUP, from: ANN, text: "tell me everything" });
    const long = `${"word ".repeat(1000)}\n\n${"more ".repeat(800)}`;
    const replyTo = await channel.instance.resolveMessageRef({ id: String(GROUP) }, String(question.message_id));
    const ref = await channel.instance.send({ id: String(GROUP) }, { text: long, replyTo });
    const bodies = fake.server.requestsTo("POST", /\/sendMessage$/).map((r) => r.body as Record<string, unknown>);
    expect(bodies).toHaveLength(3);
    expect(
      bodies
        .map((b) => b.text as string)
        .join(" ")
        .split(/\s+/)
        .filter(Boolean),
    ).toEqual(long.split(/\s+/).filter(Boolean));
    expect(bodies.every((b) => (b.text as string).length <= 4096)).toBe(true);
    expect(bodies[0]?.reply_parameters).toEqual({ message_id: question.message_id, allow_sending_without_reply: true });
    expect(bodies.slice(1).some((b) => "reply_parameters" in b)).toBe(false);
    expect(ref).toMatchObject({ conversationId: String(GROUP), fromBot: true });
    expect(fake.messagesIn(GROUP).at(-3)?.reply_to_message?.message_id).toBe(question.message_id);
  });

  it("forum topics: inbound carries the threadId, replies and typing go to the topic", async () => {
    const topic = fake.createTopic(FORUM, "CI", ANN);
    fake.userSends({ chatId: FORUM, from: ANN, text: "status?", threadId: topic });
    const event = await channel.waitForEvent(isMessage("status?"));
    expect(event.conversation).toMatchObject({ id: String(FORUM), threadId: String(topic) });
    await channel.instance.setTyping({ id: String(FORUM), threadId: String(topic) }, true);
    const ref = await channel.instance.send(
      { id: String(FORUM), threadId: String(topic) },
      { text: "green", replyTo: event.ref },
    );
    expect(ref.threadId).toBe(String(topic));
    expect(fake.messagesIn(FORUM).at(-1)).toMatchObject({
      text: "green",
      message_thread_id: topic,
      is_topic_message: true,
    });
    expect(fake.state.chatActions).toEqual([{ chat_id: FORUM, action: "typing", message_thread_id: topic }]);
  });

  it("a group upgraded to a supergroup keeps its conversation id, in and out, after a restart too", async () => {
    const stateDir = await mkdtemp(join(tmpdir(), "chorus-telegram-"));
    await channel.stop();
    channel = await startChannel(telegramChannel, { config: fake.config(), stateDir });
    fake.addChat({ id: -42, type: "group", title: "Family" });
    fake.migrateGroup(-42, -1009, ANN);
    fake.userSends({ chatId: -1009, from: ANN, text: "still here" });
    const event = await channel.waitForEvent(isMessage("still here"));
    expect(event.conversation.id).toBe("-42");
    await channel.instance.send({ id: "-42" }, { text: "me too" });
    expect(fake.messagesIn(-1009).at(-1)?.text).toBe("me too");

    await channel.stop();
    channel = await startChannel(telegramChannel, { config: fake.config(), stateDir });
    fake.userSends({ chatId: -1009, from: ANN, text: "after restart" });
    expect((await channel.waitForEvent(isMessage("after restart"))).conversation.id).toBe("-42");
    await rm(stateDir, { recursive: true, force: true });
  });

  it("a send to a group that migrated unnoticed follows migrate_to_chat_id", async () => {
    fake.addChat({ id: -43, type: "group", title: "Old" });
    fake.addChat({ id: -1010, type: "supergroup", title: "Old" });
    const old = fake.state.chat(-43);
    if (old) old.migrated_to = -1010;
    await channel.instance.send({ id: "-43" }, { text: "hello" });
    expect(fake.messagesIn(-1010).map((m) => m.text)).toEqual(["hello"]);
  });

  it("the same update delivered twice carries the same eventId, so the host keeps it once", async () => {
    fake.userSends({ chatId: GROUP, from: ANN, text: "once" });
    const first = await channel.waitForEvent(isMessage("once"));
    fake.redeliverLast();
    fake.userSends({ chatId: GROUP, from: ANN, text: "after" });
    await channel.waitForEvent(isMessage("after"));
    expect(channel.events.filter(isMessage("once"))).toHaveLength(1);
    expect(channel.duplicates.filter(isMessage("once")).map((e) => e.eventId)).toEqual([first.eventId]);
  });

  it("an update it cannot read leaves a warning naming what is wrong, and polling goes on", async () => {
    const bad = fake.sendUnparseable();
    fake.userSends({ chatId: GROUP, from: ANN, text: "still read" });
    await channel.waitForEvent(isMessage("still read"));
    expect(channel.logs.at("warn").map((r) => r.message)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^telegram: skipped a delivery it cannot read: update ${bad.update_id}: message\\.chat: .*expected object`,
        ),
      ),
    ]);
    await eventually(() => expect(fake.state.pending).toEqual([]));
  });
});
