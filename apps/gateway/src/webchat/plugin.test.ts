import { performReaction } from "@chorus/core";
import { type RunningChannel, startChannel, validatePluginConfig } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { WebchatHub } from "./hub.js";
import { createWebchatPlugin } from "./plugin.js";
import { WebchatSite } from "./site.js";
import { tempDir } from "./support.test.util.js";

let site: WebchatSite;
let hub: WebchatHub;
let running: RunningChannel;
let cleanup: () => Promise<void>;
const plugin = () => createWebchatPlugin(site);

beforeEach(async () => {
  const temp = await tempDir("plugin");
  cleanup = temp.cleanup;
  site = new WebchatSite({ botName: "Agent" });
  running = await startChannel(plugin(), { config: { botName: "Chorus" }, stateDir: temp.dir });
  hub = site.hub as WebchatHub;
});

afterEach(async () => {
  await running.stop();
  await cleanup();
});

describe("webchat inbound events", () => {
  it("normalises a direct message", async () => {
    const ada = hub.identify("Ada");
    const sent = hub.post(`dm:${ada.id}`, ada.id, "hello there");
    const event = await running.waitForEvent((e) => e.type === "message");
    expect(event).toEqual({
      type: "message",
      eventId: `default:${sent.id}`,
      conversation: {
        id: `dm:${ada.id}`,
        kind: "direct",
        members: [
          { id: "bot", name: "Chorus", isBot: true },
          { id: ada.id, name: "Ada" },
        ],
      },
      sender: { id: ada.id, name: "Ada" },
      text: "hello there",
      mentions: { bot: false, others: [] },
      ref: {
        channel: "webchat",
        accountId: "default",
        conversationId: `dm:${ada.id}`,
        messageId: sent.id,
        fromBot: false,
      },
      timestamp: sent.ts,
    });
  });

  it("normalises a group message with mentions and a reply to the bot", async () => {
    const ada = hub.identify("Ada");
    const bob = hub.identify("Bob");
    hub.join("lobby", ada.id);
    hub.join("lobby", bob.id);
    const bot = await running.instance.send({ id: "lobby" }, { text: "Who wants tea?" });
    const sent = hub.post("lobby", ada.id, "@Chorus yes please, and @bob too", { replyTo: bot.messageId });
    const event = await running.waitForEvent((e) => e.type === "message");
    expect(event).toMatchObject({
      conversation: { id: "lobby", kind: "group", title: "lobby" },
      mentions: { bot: true, others: [bob.id] },
      replyTo: { messageId: bot.messageId, fromBot: true, senderId: "bot", text: "Who wants tea?" },
      ref: { conversationId: "lobby", messageId: sent.id, fromBot: false },
    });
    expect(event.type === "message" && event.conversation.members?.map((m) => m.name)).toEqual([
      "Chorus",
      "Ada",
      "Bob",
    ]);
    // The bot's own message was never emitted.
    expect(running.events.filter((e) => e.type === "message")).toHaveLength(1);
  });

  it("emits people's reactions added and removed, never the bot's", async () => {
    const ada = hub.identify("Ada");
    hub.join("lobby", ada.id);
    const ref = await running.instance.send({ id: "lobby" }, { text: "react to me" });
    await running.instance.react(ref, { op: "add", emoji: "👀" });
    hub.react(ref.messageId, ada.id, "❤️", true);
    hub.react(ref.messageId, ada.id, "❤️", false);
    await running.waitForEvent((e) => e.type === "reaction" && e.action === "removed");
    const reactions = running.events.filter((e) => e.type === "reaction");
    expect(reactions).toEqual([
      expect.objectContaining({ emoji: "❤", action: "added", actor: { id: ada.id, name: "Ada" }, target: ref }),
      expect.objectContaining({
        emoji: "❤",
        action: "removed",
        conversation: expect.objectContaining({ id: "lobby" }),
      }),
    ]);
    expect(new Set(reactions.map((e) => e.eventId)).size).toBe(2);
  });

  it("stops emitting after stop, and its hub is no longer served", async () => {
    const ada = hub.identify("Ada");
    await running.instance.stop();
    expect(site.hub).toBeUndefined();
    hub.post(`dm:${ada.id}`, ada.id, "anyone?");
    expect(running.events).toEqual([]);
    expect(running.instance.status()).toEqual({ state: "stopped" });
  });

  it("emits again, once, a message whose commit the gateway failed", async () => {
    const ada = hub.identify("Ada");
    running.refuseCommit((e) => e.type === "message", 2);
    const sent = hub.post(`dm:${ada.id}`, ada.id, "first try fails");
    const event = await running.waitForEvent((e) => e.type === "message");
    expect(event.eventId).toBe(`default:${sent.id}`);
    expect(running.refused.map((e) => e.eventId)).toEqual([event.eventId, event.eventId]);
    expect(running.events).toHaveLength(1);
    expect(running.logs.at("warn").map((line) => line.message)).toContain(
      "webchat: the gateway could not commit an event; it is kept and emitted again until it is",
    );
  });

  it("takes the bot's name from the site (the agent's) unless the config names it", async () => {
    await running.stop();
    running = await startChannel(plugin(), { config: {} });
    expect((site.hub as WebchatHub).bot.name).toBe("Agent");
    expect(running.instance.identity?.()).toEqual({ id: "bot", name: "Agent", isBot: true });
  });
});

describe("webchat instance", () => {
  it("splits long replies at 8000 characters and returns the first part's ref", async () => {
    const ada = hub.identify("Ada");
    const text = `${"word ".repeat(1700)}\n\n${"more ".repeat(1000)}`;
    const ref = await running.instance.send({ id: `dm:${ada.id}` }, { text });
    const messages = hub.messagesIn(`dm:${ada.id}`);
    expect(messages.length).toBe(2);
    expect(messages.every((m) => m.text.length <= 8000 && m.sender.id === "bot")).toBe(true);
    expect(ref).toMatchObject({ messageId: messages[0]?.id, fromBot: true, conversationId: `dm:${ada.id}` });
  });

  it("replies to a kept message and drops a reply target that is gone", async () => {
    const ada = hub.identify("Ada");
    const question = hub.post(`dm:${ada.id}`, ada.id, "question");
    const inbound = await running.waitForEvent((e) => e.type === "message");
    const replyTo = inbound.type === "message" ? inbound.ref : undefined;
    const answer = await running.instance.send(
      { id: `dm:${ada.id}` },
      { text: "answer", ...(replyTo ? { replyTo } : {}) },
    );
    expect(hub.message(answer.messageId)?.replyTo?.id).toBe(question.id);
    const orphan = await running.instance.send(
      { id: `dm:${ada.id}` },
      { text: "late", replyTo: { channel: "webchat", accountId: "default", conversationId: "x", messageId: "m_gone" } },
    );
    expect(hub.message(orphan.messageId)?.replyTo).toBeUndefined();
  });

  it("reacts through core: shortcodes, several emoji, clear keeps other people's", async () => {
    const ada = hub.identify("Ada");
    hub.join("lobby", ada.id);
    const ref = await running.instance.send({ id: "lobby" }, { text: "target" });
    const react = (call: object) => performReaction({ plugin: plugin(), instance: running.instance, ref, call });
    expect(await react({ emoji: ":tada:" })).toEqual({ ok: true, action: "react", op: "add", emoji: "🎉" });
    await react({ emoji: "❤️" });
    await react({ emoji: "custom_name" });
    hub.react(ref.messageId, ada.id, "🎉", true);
    expect(await running.instance.listReactions?.(ref)).toEqual([
      { emoji: "🎉", count: 2, me: true },
      { emoji: "❤", count: 1, me: true },
      { emoji: "custom_name", count: 1, me: true },
    ]);
    expect(await react({ emoji: "heart", remove: true })).toMatchObject({ op: "remove", removed: ["❤"] });
    expect(await react({ emoji: "" })).toEqual({
      ok: true,
      action: "react",
      op: "clear",
      removed: ["🎉", "custom_name"],
    });
    expect(hub.reactionsOf(ref.messageId)).toEqual([{ emoji: "🎉", users: [ada] }]);
  });

  it("refuses refs it cannot complete", async () => {
    const ada = hub.identify("Ada");
    const sent = hub.post(`dm:${ada.id}`, ada.id, "hi");
    await expect(running.instance.resolveMessageRef({ id: "lobby" }, sent.id)).rejects.toMatchObject({
      code: "E_MESSAGE_NOT_FOUND",
    });
    await expect(running.instance.resolveMessageRef({ id: `dm:${ada.id}` }, sent.id)).resolves.toMatchObject({
      messageId: sent.id,
      fromBot: false,
    });
    const ghost = { channel: "webchat", accountId: "default", conversationId: "lobby", messageId: "m_ghost" };
    await expect(running.instance.react(ghost, { op: "add", emoji: "👍" })).rejects.toThrow(
      /m_ghost is not in room lobby/,
    );
    await expect(running.instance.send({ id: "nowhere" }, { text: "hi" })).rejects.toThrow(/no webchat room "nowhere"/);
  });

  it("broadcasts the bot's typing and reports its status", async () => {
    const seen: unknown[] = [];
    hub.subscribe((event) => seen.push(event));
    await running.instance.setTyping({ id: "lobby" }, true);
    expect(seen).toEqual([{ type: "typing", room: "lobby", userId: "bot", on: true }]);
    expect(running.instance.status()).toMatchObject({ state: "running", detail: expect.stringMatching(/Chorus/) });
  });
});

describe("webchat config", () => {
  it("applies botName, title and keepMessages, and rejects unknown keys", async () => {
    const other = await startChannel(plugin(), { config: { botName: "Robo", title: "Team", keepMessages: 10 } });
    try {
      const configured = site.hub as WebchatHub;
      expect(configured.bot.name).toBe("Robo");
      expect(configured.title).toBe("Team");
      expect(site.title).toBe("Team");
      expect(configured.historyLimit).toBe(10);
    } finally {
      await other.stop();
    }
    await expect(validatePluginConfig(plugin(), { botname: "x" })).rejects.toThrow(/channels\.webchat: .*botname/);
    await expect(validatePluginConfig(plugin(), { keepMessages: 0 })).rejects.toThrow(
      /channels\.webchat\.keepMessages/,
    );
  });
});
