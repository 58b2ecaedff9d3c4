import { readFileSync } from "node:fs";
import type { InboundMessageEvent } from "@chorus/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { threadRootKey } from "./inbound.js";
import { type FeishuHarness, startFeishu } from "./start.test-util.js";
import type { FakeUser } from "./testing/index.js";

/** A documented event, as Feishu's docs show it (the fixtures keep their ids). */
const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), "utf8")) as {
    header: { event_id: string };
    event: Record<string, unknown>;
  };

const DOC_CHAT = "oc_5ce6d572455d361153b7xx51da133945";
let h: FeishuHarness;
let tom: FakeUser;

beforeEach(async () => {
  // The app id of Feishu's examples, so their `app_id`s are this app's.
  h = await startFeishu({ fake: { appId: "cli_9f5343c580712544" } });
  tom = h.fake.addUser("Tom", "ou_84aad35d084aa403a838cf73ee18467");
  const jerry = h.fake.addUser("Jerry", "ou_7d8a6e6df7621556ce0d21922b676706");
  h.fake.state.addChat({
    chat_id: DOC_CHAT,
    name: "Project X",
    chat_mode: "group",
    members: [tom.open_id, jerry.open_id],
  });
  h.fake.state.addChat({
    chat_id: "oc_84983ff6516d731e5b5f68d4ea2e1da5",
    name: "",
    chat_mode: "p2p",
    members: [tom.open_id],
  });
});

afterEach(async () => {
  await h.close();
});

/** Pushes a documented event down the long connection, through the SDK, to the plugin. */
const deliver = (name: string, change?: (event: Record<string, unknown>) => void) => {
  const envelope = fixture(name);
  change?.(envelope.event);
  return h.fake.longConnection.push(envelope);
};
/** A message by the bot stored under an id the fixtures use. */
const botMessage = (id: string, text: string) => {
  const message = h.fake.state.postMessage({
    chatId: DOC_CHAT,
    sender: { id: h.fake.appId, id_type: "app_id", sender_type: "app" },
    msgType: "post",
    content: JSON.stringify({ zh_cn: { content: [[{ tag: "md", text }]] } }),
  });
  h.fake.state.messages.delete(message.message_id);
  h.fake.state.messages.set(id, { ...message, message_id: id });
};
const messages = () => h.running.events.filter((e): e is InboundMessageEvent => e.type === "message");

describe("im.message.receive_v1", () => {
  it("normalises Feishu's documented text example: names for @_user_N, the chat's title and members", async () => {
    await deliver("message-receive-text");
    expect(messages()).toEqual([
      {
        type: "message",
        eventId: "5e3702a84e847582be8db7fb73283c02",
        conversation: {
          id: DOC_CHAT,
          kind: "group",
          title: "Project X",
          members: [
            { id: "ou_84aad35d084aa403a838cf73ee18467", name: "Tom" },
            { id: "ou_7d8a6e6df7621556ce0d21922b676706", name: "Jerry" },
          ],
        },
        sender: { id: "ou_84aad35d084aa403a838cf73ee18467", name: "Tom" },
        text: "@Tom hello",
        mentions: { bot: false, others: ["ou_84aad35d084aa403a838cf73ee18467"] },
        // The example replies to a message Feishu no longer has: still a reply, not the bot's.
        replyTo: { messageId: "om_5ce6d572455d361153b7cb5xxfsdfsdfdsf", fromBot: false },
        ref: {
          channel: "feishu",
          accountId: "default",
          conversationId: DOC_CHAT,
          messageId: "om_5ce6d572455d361153b7cb51da133945",
          fromBot: false,
        },
        timestamp: 1609073151345,
      },
    ]);
  });

  it("flattens rich text, sees the bot's mention, the reply to the bot and the topic thread", async () => {
    botMessage("om_8964d1b4a4fd33ac5a95e8e1c4a2b6f0", "Release **2.0** is out");
    await deliver("message-receive-post");
    const [event] = messages();
    expect(event?.text).toBe(
      "Release notes\n@Chorus please summarise this page (https://www.feishu.cn/hc/en-US)\n[image]\nand tell @Jerry👍",
    );
    expect(event?.mentions).toEqual({ bot: true, others: ["ou_7d8a6e6df7621556ce0d21922b676706"] });
    expect(event?.replyTo).toEqual({
      messageId: "om_8964d1b4a4fd33ac5a95e8e1c4a2b6f0",
      fromBot: true,
      senderId: h.fake.bot.open_id,
      text: "Release **2.0** is out",
    });
    expect(event?.conversation.threadId).toBe("omt_d4be107c616a");
    expect(event?.ref.threadId).toBe("omt_d4be107c616a");
    // The thread's first message is kept, so the bot can post into the thread later.
    expect(await h.running.store.get(threadRootKey("omt_d4be107c616a"))).toBe("om_8964d1b4a4fd33ac5a95e8e1c4a2b6f0");
  });

  it("makes a p2p chat a direct conversation, with its text as Feishu escaped it", async () => {
    await deliver("message-receive-p2p");
    const [event] = messages();
    expect(event?.conversation).toEqual({ id: "oc_84983ff6516d731e5b5f68d4ea2e1da5", kind: "direct" });
    expect(event?.text).toBe('what is on my calendar today?\nand "tomorrow"?');
    expect(event?.replyTo).toBeUndefined();
  });

  it("gives the sender's open_id alone when the app may not read names (no contact scope)", async () => {
    h.fake.contactScope = false;
    await deliver("message-receive-p2p");
    expect(messages()[0]?.sender).toEqual({ id: "ou_84aad35d084aa403a838cf73ee18467" });
  });

  it("looks a chat and its members up once and keeps them, names included, for lookupTtlMs", async () => {
    await h.fake.userSends({ chatId: h.team.chat_id, from: h.ann, text: "one" });
    await h.fake.userSends({ chatId: h.team.chat_id, from: h.bob, text: "two" });
    expect(messages().map((e) => `${e.sender.name}: ${e.text} (${e.conversation.title})`)).toEqual([
      "Ann: one (Team)",
      "Bob: two (Team)",
    ]);
    const lookups = (path: RegExp) => h.fake.server.requests.filter((r) => path.test(r.path)).length;
    expect(lookups(/^\/open-apis\/im\/v1\/chats\/[^/]+$/u)).toBe(1);
    expect(lookups(/^\/open-apis\/im\/v1\/chats\/[^/]+\/members$/u)).toBe(1);
    expect(lookups(/^\/open-apis\/contact\//u)).toBe(0);
  });

  it("does not count @all as a mention of the bot", async () => {
    await h.fake.userSends({ chatId: h.team.chat_id, from: h.ann, text: "@_all standup in 5", mentions: ["all"] });
    expect(messages()[0]).toMatchObject({ text: "@all standup in 5", mentions: { bot: false, others: [] } });
  });

  it("hears only messages that @ the bot in groups when the app lacks the all-group-messages scope", async () => {
    h.fake.groupMessageScope = false;
    await h.fake.userSends({ chatId: h.team.chat_id, from: h.ann, text: "between us" });
    await h.fake.userSends({ chatId: h.team.chat_id, from: h.ann, text: "and you?", mentions: ["bot"] });
    expect(messages().map((e) => e.text)).toEqual(["@Chorus and you?"]);
  });

  it("drops what a person did not write (an app's message)", async () => {
    await deliver("message-receive-text", (event) => {
      (event.sender as Record<string, unknown>).sender_type = "app";
    });
    await deliver("message-receive-p2p");
    expect(messages().map((e) => e.eventId)).toEqual(["f7984f25108f8137722bb63cee927e66"]);
  });

  it("warns, naming the fields, about a message it cannot read, and acknowledges it", async () => {
    await h.fake.deliverUnparseable();
    expect(h.running.events).toEqual([]);
    const [warning] = h.running.logs.at("warn").map((r) => r.message);
    expect(warning).toMatch(/^feishu: skipped a delivery it cannot read: unreadable im\.message\.receive_v1: /u);
    expect(warning).toContain("message.message_id");
    expect(h.fake.longConnection.acks.map((a) => a.code)).toEqual([200]);
  });
});

describe("im.message.reaction.created_v1 / deleted_v1", () => {
  it("normalises Feishu's documented example: the emoji, the person and the message's chat", async () => {
    botMessage("om_dc13264520392913993dd051dba21dcf", "ship it?");
    await deliver("reaction-created");
    expect(h.running.events).toEqual([
      {
        type: "reaction",
        eventId: "9b4dd0a7bbb7aee2b9d8c5b3fe8d7e21",
        conversation: { id: DOC_CHAT, kind: "group", title: "Project X" },
        target: {
          channel: "feishu",
          accountId: "default",
          conversationId: DOC_CHAT,
          messageId: "om_dc13264520392913993dd051dba21dcf",
          fromBot: true,
        },
        emoji: "😄",
        action: "added",
        actor: { id: "ou_84aad35d084aa403a838cf73ee18467", name: "Tom" },
        timestamp: 1627540601000,
      },
    ]);
  });

  it("drops the app's own (operator_type app), and keeps a sticker's name", async () => {
    botMessage("om_dc13264520392913993dd051dba21dcf", "ship it?");
    await deliver("reaction-deleted-by-app");
    expect(h.running.events).toEqual([]);
    await h.fake.userReacts("om_dc13264520392913993dd051dba21dcf", tom, "JIAYI");
    await h.fake.userUnreacts("om_dc13264520392913993dd051dba21dcf", tom, "JIAYI");
    expect(h.running.events.map((e) => (e.type === "reaction" ? `${e.action} ${e.emoji}` : e.type))).toEqual([
      "added JIAYI",
      "removed JIAYI",
    ]);
  });

  it("drops the echo of a reaction the bot itself made", async () => {
    const ref = await h.running.instance.send({ id: h.team.chat_id }, { text: "react" });
    await h.running.instance.react(ref, { op: "add", emoji: "👍" });
    await h.fake.settled();
    expect(h.fake.longConnection.acks.length).toBe(1);
    expect(h.running.events).toEqual([]);
  });
});
