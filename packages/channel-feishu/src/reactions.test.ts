import { type MessageRef, performReaction } from "@chorus/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { feishuChannel } from "./index.js";
import { type FeishuHarness, requestLines, startFeishu } from "./start.test-util.js";

let h: FeishuHarness;
let ref: MessageRef;

beforeEach(async () => {
  h = await startFeishu();
  ref = await h.running.instance.send({ id: h.team.chat_id }, { text: "react to me" });
  h.fake.server.clearRequests();
});

afterEach(async () => {
  await h.close();
});

/** A `react` call the way the agent makes it: core's rules, then the plugin. */
const react = (call: Record<string, unknown>, target = ref) =>
  performReaction({ plugin: feishuChannel, instance: h.running.instance, ref: target, call });

/** The reaction requests of this test, with the message id left out. */
const reactionRequests = () =>
  requestLines(h.fake, /\/reactions/).map((line) => line.replace(`/open-apis/im/v1/messages/${ref.messageId}`, ""));

const bodies = () =>
  h.fake.server.requests.filter((r) => r.method === "POST" && r.path.endsWith("/reactions")).map((r) => r.body);

describe("the emoji_type vocabulary on the wire", () => {
  it("sends unicode, shortcodes and native names in any case as the canonical emoji_type", async () => {
    for (const emoji of ["👎", ":-1:", "THUMBSDOWN", "thumbsdown", "ThumbsDown"]) {
      expect(await react({ emoji })).toEqual({ ok: true, action: "react", op: "add", emoji: "ThumbsDown" });
    }
    await react({ emoji: "🔥" });
    await react({ emoji: "CHECKMARK" });
    expect(bodies()).toEqual([
      { reaction_type: { emoji_type: "ThumbsDown" } },
      { reaction_type: { emoji_type: "Fire" } },
      { reaction_type: { emoji_type: "CheckMark" } },
    ]);
    expect(h.fake.botReactions(ref.messageId)).toEqual(["ThumbsDown", "Fire", "CheckMark"]);
  });

  it("refuses what Feishu has no emoji_type for, naming the closest, before any request", async () => {
    const error = await react({ emoji: "🦜" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "E_UNSUPPORTED_EMOJI", message: '"🦜" is not an allowed reaction on Feishu.' });
    const alternatives = (error as { details: { alternatives: string[] } }).details.alternatives;
    expect(alternatives).toHaveLength(3);
    await expect(react({ emoji: "FIRE_ENGINE" })).rejects.toMatchObject({ code: "E_UNSUPPORTED_EMOJI" });
    expect(reactionRequests()).toEqual([]);
  });
});

describe("add and remove (DESIGN §2.2, row Feishu)", () => {
  it("adds once: adding what the bot holds is success without a second reaction", async () => {
    await react({ emoji: "👍" });
    await react({ emoji: ":thumbsup:" });
    expect(reactionRequests()).toEqual([
      "GET /reactions?page_size=50&user_id_type=open_id&reaction_type=THUMBSUP → 200",
      "POST /reactions → 200",
      "GET /reactions?page_size=50&user_id_type=open_id&reaction_type=THUMBSUP → 200",
    ]);
    expect(h.fake.botReactions(ref.messageId)).toEqual(["THUMBSUP"]);
  });

  it("remove: true deletes the bot's own reaction of that emoji_type, never a person's", async () => {
    await h.fake.userReacts(ref.messageId, h.ann, "THUMBSUP");
    await react({ emoji: "👍" });
    await react({ emoji: "❤️" });
    h.fake.server.clearRequests();
    expect(await react({ emoji: "👍", remove: true })).toEqual({
      ok: true,
      action: "react",
      op: "remove",
      emoji: "THUMBSUP",
      removed: ["THUMBSUP"],
    });
    const [list, remove] = reactionRequests();
    expect(list).toBe("GET /reactions?page_size=50&user_id_type=open_id&reaction_type=THUMBSUP → 200");
    expect(remove).toMatch(/^DELETE \/reactions\/[\w-]+ → 200$/u);
    expect(h.fake.botReactions(ref.messageId)).toEqual(["HEART"]);
    expect(h.fake.reactionsBy(ref.messageId, h.ann.open_id)).toEqual(["THUMBSUP"]);
  });

  it("removing what the bot does not hold is success and deletes nothing", async () => {
    await h.fake.userReacts(ref.messageId, h.ann, "Fire");
    expect(await react({ emoji: "🔥", remove: true })).toMatchObject({ op: "remove", emoji: "Fire", removed: [] });
    expect(reactionRequests().filter((line) => line.startsWith("DELETE"))).toEqual([]);
    expect(h.fake.reactionsBy(ref.messageId, h.ann.open_id)).toEqual(["Fire"]);
  });

  it("refuses an empty emoji with E_EMOJI_REQUIRED telling to pass clearAll: true", async () => {
    await react({ emoji: "👍" });
    await expect(react({ emoji: "" })).rejects.toMatchObject({
      code: "E_EMOJI_REQUIRED",
      hint: "Pass clearAll: true to remove all your reactions.",
    });
    expect(h.fake.botReactions(ref.messageId)).toEqual(["THUMBSUP"]);
  });
});

describe("clearAll: true", () => {
  it("lists every page and deletes each of the app's own reactions, leaving everyone else's", async () => {
    // 55 people reacted first: the bot's reactions are on the second page of 50.
    for (let i = 0; i < 55; i++) await h.fake.userReacts(ref.messageId, h.fake.addUser(`Fan ${i}`), "HEART");
    for (const emoji of ["👍", "🎉", "👀"]) await react({ emoji });
    h.fake.server.clearRequests();
    expect(await react({ clearAll: true })).toEqual({
      ok: true,
      action: "react",
      op: "clear",
      removed: ["THUMBSUP", "PARTY", "GLANCE"],
    });
    const lines = reactionRequests();
    expect(lines.slice(0, 2)).toEqual([
      "GET /reactions?page_size=50&user_id_type=open_id → 200",
      expect.stringMatching(/^GET \/reactions\?page_size=50&user_id_type=open_id&page_token=\S+ → 200$/u),
    ]);
    expect(lines.slice(2).every((line) => line.startsWith("DELETE "))).toBe(true);
    expect(lines).toHaveLength(5);
    expect(h.fake.botReactions(ref.messageId)).toEqual([]);
    expect(h.fake.state.reactions.get(ref.messageId)).toHaveLength(55);
  });

  it("works after a restart: Feishu's list, not a local record, says what the bot holds", async () => {
    await react({ emoji: "👍" });
    await react({ emoji: "💯" });
    await h.running.restart();
    expect(await react({ clearAll: true })).toMatchObject({ op: "clear", removed: ["THUMBSUP", "Hundred"] });
    expect(h.fake.botReactions(ref.messageId)).toEqual([]);
    expect(await h.running.store.list("")).toEqual([]);
  });
});

describe("listing", () => {
  it("counts each emoji_type and says whether the bot is among those who reacted", async () => {
    await h.fake.userReacts(ref.messageId, h.ann, "THUMBSUP");
    await h.fake.userReacts(ref.messageId, h.bob, "THUMBSUP");
    await h.fake.userReacts(ref.messageId, h.bob, "Fire");
    await react({ emoji: "👍" });
    expect(await h.running.instance.listReactions?.(ref)).toEqual([
      { emoji: "THUMBSUP", count: 3, me: true },
      { emoji: "Fire", count: 1, me: false },
    ]);
  });
});

describe("refusals", () => {
  it("reports a withdrawn message as E_MESSAGE_NOT_FOUND", async () => {
    const message = await h.fake.userSends({ chatId: h.team.chat_id, from: h.ann, text: "oops" });
    h.fake.recall(message.message_id);
    const target = { ...ref, messageId: message.message_id, fromBot: false };
    await expect(react({ emoji: "👍" }, target)).rejects.toMatchObject({ code: "E_MESSAGE_NOT_FOUND" });
    await expect(react({ emoji: "👍" }, { ...ref, messageId: "om_nope" })).rejects.toMatchObject({
      code: "E_MESSAGE_NOT_FOUND",
      platformCode: "231003",
    });
  });

  it("tells to add the bot when it is not in the chat", async () => {
    const chat = h.fake.state.chats.get(h.team.chat_id);
    if (chat) chat.botIn = false;
    const error = await react({ emoji: "👍" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "E_PLATFORM", retryable: false, platformCode: "231002" });
    expect((error as { hint: string }).hint).toMatch(/^Add the bot to the chat/u);
  });
});
