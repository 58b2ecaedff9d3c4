import { BotReactionRecord } from "@chorus/channel-kit";
import { performReaction } from "@chorus/core";
import { faults, type RunningChannel, startChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BOT_API_PATH } from "./client.js";
import { nextcloudChannel } from "./index.js";
import { signatureMatches } from "./signing.js";
import { createFakeTalk, type FakeBot, type FakeTalk } from "./testing/index.js";

const ann = { id: "ann", name: "Ann" };
let fake: FakeTalk;
let bot: FakeBot;
let running: RunningChannel;

beforeEach(async () => {
  fake = createFakeTalk();
  await fake.start();
  bot = fake.installBot({ name: "Chorus", secret: "k".repeat(64), url: "https://gw/hooks/nextcloud/default" });
  fake.addRoom({ token: "team", name: "Team" });
  fake.setupBot(bot, "team");
  running = await startChannel(nextcloudChannel, { config: fake.config(bot) });
});

afterEach(async () => {
  await running.stop();
  await fake.close();
});

async function userMessage() {
  const hook = fake.userSends({ token: "team", user: ann, message: "react to me" });
  const ref = await running.instance.resolveMessageRef({ id: "team" }, hook.object.id);
  return { id: Number(hook.object.id), ref };
}
const react = (ref: Awaited<ReturnType<typeof userMessage>>["ref"], call: Record<string, unknown>) =>
  performReaction({ plugin: nextcloudChannel, instance: running.instance, ref, call });
const reactionPath = (id: number) => `${BOT_API_PATH}/team/reaction/${id}`;

describe("Nextcloud Talk reactions (DESIGN §2.2 row: addOnly)", () => {
  it("add: one signed POST with the emoji, 201 on the wire, the reaction held by the bot", async () => {
    const { id, ref } = await userMessage();
    expect(await react(ref, { emoji: "thumbsup" })).toEqual({ ok: true, action: "react", op: "add", emoji: "👍" });
    const requests = fake.server.requestsTo("*", reactionPath(id));
    expect(requests.map((r) => [r.method, r.status, r.body])).toEqual([["POST", 201, { reaction: "👍" }]]);
    const random = requests[0]?.headers["x-nextcloud-talk-bot-random"] as string;
    const signature = requests[0]?.headers["x-nextcloud-talk-bot-signature"] as string;
    expect(signatureMatches(bot.secret, random, "👍", signature)).toBe(true);
    expect(fake.botReactions(id, bot)).toEqual(["👍"]);
  });

  it("adding again is idempotent: the persisted record answers without a request", async () => {
    const { id, ref } = await userMessage();
    await react(ref, { emoji: "👍" });
    await react(ref, { emoji: ":+1:" });
    expect(fake.server.requestsTo("POST", reactionPath(id))).toHaveLength(1);
    expect(fake.botReactions(id, bot)).toEqual(["👍"]);
    expect(await running.store.get(BotReactionRecord.key({ conversationId: "team", messageId: String(id) }))).toEqual([
      "👍",
    ]);
    // Also after a restart: the record is in the store.
    await running.restart();
    await performReaction({ plugin: nextcloudChannel, instance: running.instance, ref, call: { emoji: "👍" } });
    expect(fake.server.requestsTo("POST", reactionPath(id))).toHaveLength(1);
  });

  it("sends a reaction again after a dropped connection: Talk answers 200 for one the bot holds", async () => {
    const { id, ref } = await userMessage();
    fake.server.inject(faults.reset({ path: reactionPath(id) }));
    expect(await react(ref, { emoji: "🎉" })).toMatchObject({ ok: true, op: "add", emoji: "🎉" });
    expect(fake.server.requestsTo("POST", reactionPath(id))).toHaveLength(2);
    expect(fake.botReactions(id, bot)).toEqual(["🎉"]);
  });

  it("Talk's 200 (already there) is success when the record was lost", async () => {
    const { id, ref } = await userMessage();
    fake.state.addReaction(id, bot.actorId, "❤️");
    expect(await react(ref, { emoji: "heart" })).toMatchObject({ ok: true, op: "add", emoji: "❤️" });
    expect(fake.server.requestsTo("POST", reactionPath(id)).map((r) => r.status)).toEqual([200]);
    expect(fake.botReactions(id, bot)).toEqual(["❤️"]);
  });

  it("a second emoji joins the first", async () => {
    const { id, ref } = await userMessage();
    await react(ref, { emoji: "👍" });
    await react(ref, { emoji: "🎉" });
    expect(fake.botReactions(id, bot)).toEqual(["👍", "🎉"]);
  });

  for (const call of [
    { emoji: "👍", remove: true },
    { emoji: "" },
    { clearAll: true },
    { emoji: "👍", clearAll: true },
  ]) {
    it(`refuses ${JSON.stringify(call)} with E_UNSUPPORTED before any request, changing nothing`, async () => {
      const { id, ref } = await userMessage();
      await react(ref, { emoji: "👍" });
      fake.userReacts(id, ann, "👍");
      fake.server.clearRequests();
      const error = await react(ref, call).then(
        () => undefined,
        (e: unknown) => e as { code: string; message: string },
      );
      expect(error?.code).toBe("E_UNSUPPORTED");
      expect(error?.message).toMatch(/remov/i);
      expect(fake.server.requests).toEqual([]);
      expect(fake.botReactions(id, bot)).toEqual(["👍"]);
      expect(fake.reactionsBy(id, "users/ann")).toEqual(["👍"]);
    });
  }

  it("refuses a custom emoji name with E_UNSUPPORTED_EMOJI before any request", async () => {
    const { ref } = await userMessage();
    fake.server.clearRequests();
    await expect(react(ref, { emoji: ":partyparrot:" })).rejects.toMatchObject({ code: "E_UNSUPPORTED_EMOJI" });
    expect(fake.server.requests).toEqual([]);
  });

  it("refuses to react to the bot's own sent message (no id) with E_MESSAGE_NOT_FOUND", async () => {
    const own = await running.instance.send({ id: "team" }, { text: "mine" });
    fake.server.clearRequests();
    await expect(react(own, { emoji: "👍" })).rejects.toMatchObject({ code: "E_MESSAGE_NOT_FOUND" });
    expect(fake.server.requests).toEqual([]);
  });

  it("maps an unknown message (404) to E_MESSAGE_NOT_FOUND and a wrong secret (401) to E_AUTH", async () => {
    const missing = await running.instance.resolveMessageRef({ id: "team" }, "999999");
    await expect(react(missing, { emoji: "👍" })).rejects.toMatchObject({ code: "E_MESSAGE_NOT_FOUND" });
    const { id, ref } = await userMessage();
    const wrong = await startChannel(nextcloudChannel, { config: fake.config(bot, { secret: "q".repeat(64) }) });
    try {
      await expect(
        performReaction({ plugin: nextcloudChannel, instance: wrong.instance, ref, call: { emoji: "👍" } }),
      ).rejects.toMatchObject({ code: "E_AUTH" });
    } finally {
      await wrong.stop();
    }
    expect(fake.botReactions(id, bot)).toEqual([]);
  });

  it("a bot without the response feature is refused (400 → E_INVALID_INPUT naming the cause)", async () => {
    const mute = fake.installBot({
      name: "Mute",
      secret: "m".repeat(64),
      url: "https://gw/mute",
      features: ["webhook"],
    });
    fake.setupBot(mute, "team");
    const other = await startChannel(nextcloudChannel, { config: fake.config(mute) });
    try {
      const { ref } = await userMessage();
      const call = performReaction({ plugin: nextcloudChannel, instance: other.instance, ref, call: { emoji: "👍" } });
      // Talk only tries bots with the response feature, so the signature matches none: 401.
      await expect(call).rejects.toMatchObject({ code: "E_AUTH" });
    } finally {
      await other.stop();
    }
  });
});
