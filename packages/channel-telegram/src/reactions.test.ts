import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type MessageRef, performReaction, type UnsupportedEmojiError } from "@chorus/core";
import { type RunningChannel, startChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { telegramChannel } from "./index.js";
import { createFakeTelegram, type FakeTelegram } from "./testing/index.js";

const GROUP = -1001;
const LIMITED = -1002;
let fake: FakeTelegram;
let channel: RunningChannel;
let stateDir: string;

beforeEach(async () => {
  fake = createFakeTelegram();
  await fake.start();
  fake.addChat({ id: GROUP, type: "supergroup", title: "Team" });
  fake.addChat({
    id: LIMITED,
    type: "supergroup",
    title: "Strict",
    available_reactions: ["👍", "👎", "🔥"].map((emoji) => ({ type: "emoji", emoji }) as never),
  });
  stateDir = await mkdtemp(join(tmpdir(), "chorus-telegram-"));
  channel = await startChannel(telegramChannel, { config: fake.config(), stateDir });
});

afterEach(async () => {
  await channel.stop();
  await fake.close();
  await rm(stateDir, { recursive: true, force: true });
});

const react = (ref: MessageRef, call: Record<string, unknown>) =>
  performReaction({ plugin: telegramChannel, instance: channel.instance, ref, call });
const target = (chat = GROUP) => channel.instance.send({ id: String(chat) }, { text: "target" });
const reactionBodies = () => fake.server.requestsTo("POST", /\/setMessageReaction$/).map((r) => r.body);

describe("Telegram reactions (DESIGN §2.2 row Telegram)", () => {
  it("add sends a one-element array, normalizing ❤️ to ❤ (no U+FE0F on the wire)", async () => {
    const ref = await target();
    expect(await react(ref, { emoji: "❤️" })).toEqual({ ok: true, action: "react", op: "add", emoji: "❤" });
    expect(reactionBodies()).toEqual([
      { chat_id: String(GROUP), message_id: Number(ref.messageId), reaction: [{ type: "emoji", emoji: "❤" }] },
    ]);
    expect(fake.botReactions(GROUP, Number(ref.messageId))).toEqual(["❤"]);
  });

  it("a new emoji replaces the bot's one (single slot) and reports what it replaced", async () => {
    const ref = await target();
    await react(ref, { emoji: "thumbsup" });
    expect(await react(ref, { emoji: "🔥" })).toMatchObject({ op: "add", emoji: "🔥", removed: ["👍"] });
    expect(fake.botReactions(GROUP, Number(ref.messageId))).toEqual(["🔥"]);
  });

  it('emoji "" and remove: true both clear with reaction: [] (remove still needs an emoji)', async () => {
    const ref = await target();
    await react(ref, { emoji: "👍" });
    expect(await react(ref, { emoji: "" })).toMatchObject({ op: "clear", removed: ["👍"] });
    await react(ref, { emoji: "👀" });
    expect(await react(ref, { emoji: "👀", remove: true })).toMatchObject({ op: "clear", removed: ["👀"] });
    await expect(react(ref, { emoji: "", remove: true })).rejects.toMatchObject({ code: "E_EMOJI_REQUIRED" });
    expect(reactionBodies().map((b) => (b as { reaction: unknown }).reaction)).toEqual([
      [{ type: "emoji", emoji: "👍" }],
      [],
      [{ type: "emoji", emoji: "👀" }],
      [],
    ]);
    expect(fake.botReactions(GROUP, Number(ref.messageId))).toEqual([]);
  });

  it("adding what the slot holds is success without a request", async () => {
    const ref = await target();
    await react(ref, { emoji: "👍" });
    await react(ref, { emoji: ":+1:" });
    expect(reactionBodies()).toHaveLength(1);
  });

  it("an emoji bots may not use is refused before calling Telegram, with the closest allowed ones", async () => {
    const ref = await target();
    const error = (await react(ref, { emoji: "🦜" }).catch((e: unknown) => e)) as UnsupportedEmojiError;
    expect(error.code).toBe("E_UNSUPPORTED_EMOJI");
    expect(error.alternatives.length).toBeGreaterThan(0);
    expect(error.alternatives.every((a) => telegramChannel.vocabulary?.has(a))).toBe(true);
    expect(reactionBodies()).toEqual([]);
  });

  it("the chat's available_reactions (getChat, cached) narrow the set; the refusal suggests allowed ones", async () => {
    const ref = await target(LIMITED);
    const error = (await react(ref, { emoji: "❤" }).catch((e: unknown) => e)) as UnsupportedEmojiError;
    expect(error.code).toBe("E_UNSUPPORTED_EMOJI");
    expect(error.alternatives.every((a) => ["👍", "👎", "🔥"].includes(a))).toBe(true);
    await react(ref, { emoji: "🔥" });
    expect(reactionBodies()).toHaveLength(1);
    expect(fake.server.requestsTo("POST", /\/getChat$/)).toHaveLength(1);
    expect(fake.botReactions(LIMITED, Number(ref.messageId))).toEqual(["🔥"]);
  });

  it("a numeric id is a custom emoji; Telegram's refusal becomes E_UNSUPPORTED_EMOJI", async () => {
    const ref = await target();
    await expect(react(ref, { emoji: "5368324170671202286" })).rejects.toMatchObject({ code: "E_UNSUPPORTED_EMOJI" });
    expect(reactionBodies()).toEqual([
      expect.objectContaining({ reaction: [{ type: "custom_emoji", custom_emoji_id: "5368324170671202286" }] }),
    ]);
  });

  it("a message that does not exist is E_MESSAGE_NOT_FOUND", async () => {
    const ref = await channel.instance.resolveMessageRef({ id: String(GROUP) }, "999");
    await expect(react(ref, { emoji: "👍" })).rejects.toMatchObject({ code: "E_MESSAGE_NOT_FOUND" });
    await expect(channel.instance.resolveMessageRef({ id: String(GROUP) }, "abc")).rejects.toMatchObject({
      code: "E_MESSAGE_NOT_FOUND",
    });
  });

  it("the bot reaction record survives a restart (the store), so adding it again sends nothing", async () => {
    const ref = await target();
    await react(ref, { emoji: "👍" });
    await channel.stop();
    channel = await startChannel(telegramChannel, { config: fake.config(), stateDir });
    await react(ref, { emoji: "👍" });
    expect(reactionBodies()).toHaveLength(1);
  });

  it("bigReactions sends is_big", async () => {
    await channel.stop();
    channel = await startChannel(telegramChannel, { config: fake.config({ bigReactions: true }), stateDir });
    const ref = await target();
    await react(ref, { emoji: "🎉" });
    expect(reactionBodies()[0]).toMatchObject({ is_big: true, reaction: [{ type: "emoji", emoji: "🎉" }] });
  });
});

describe("Telegram reactions in flight", () => {
  it("calls on one message reach Telegram in the order they were made (the last one holds the slot)", async () => {
    const ref = await target();
    await Promise.all([react(ref, { emoji: "👀" }), react(ref, { emoji: "❤" }), react(ref, { emoji: "🔥" })]);
    expect(reactionBodies().map((b) => (b as { reaction: { emoji: string }[] }).reaction[0]?.emoji)).toEqual([
      "👀",
      "❤",
      "🔥",
    ]);
    expect(fake.botReactions(GROUP, Number(ref.messageId))).toEqual(["🔥"]);
  });
});
