import { type ChorusError, type MessageRef, performReaction } from "@chorus/core";
import { type RecordedRequest, type RunningChannel, startChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { slackChannel } from "./index.js";
import { createFakeSlack, type FakeSlack } from "./testing/index.js";

const ANN = "U0ANN00001";
const TEAM = "C0TEAM0001";
let fake: FakeSlack;
let running: RunningChannel;
let ref: MessageRef;

beforeEach(async () => {
  fake = createFakeSlack();
  await fake.start();
  fake.addUser({ id: ANN, name: "ann" });
  fake.addConversation({ id: TEAM, type: "channel", name: "team", members: [fake.bot.id, ANN] });
  fake.state.customEmoji.add("partyparrot");
  running = await startChannel(slackChannel, { config: fake.config({ retries: 1, maxRetryAfterMs: 2_000 }) });
  ref = await running.instance.send({ id: TEAM }, { text: "react to me" });
  fake.server.clearRequests();
});

afterEach(async () => {
  await running.stop();
  await fake.close();
});

const react = (call: Record<string, unknown>, target = ref) =>
  performReaction({ plugin: slackChannel, instance: running.instance, ref: target, call });
const failure = (call: Record<string, unknown>) =>
  react(call).then(
    () => undefined,
    (error: ChorusError) => error,
  );
const held = () => fake.botReactions(TEAM, ref.messageId);
const calls = (method: string): Record<string, unknown>[] =>
  fake.server.requestsTo("POST", `/api/${method}`).map((r: RecordedRequest) => r.body as Record<string, unknown>);

describe("reactions (DESIGN §2.2, Slack: clearAll and list)", () => {
  it("adds by Slack name: 👍, thumbsup, +1 and :thumbsup: are all thumbsup, and adding again is idempotent", async () => {
    for (const emoji of ["👍", "thumbsup", "+1", ":thumbsup:"]) {
      expect(await react({ emoji })).toEqual({ ok: true, action: "react", op: "add", emoji: "thumbsup" });
    }
    expect(calls("reactions.add").map((b) => b.name)).toEqual(["thumbsup", "thumbsup", "thumbsup", "thumbsup"]);
    expect(calls("reactions.add")[0]).toMatchObject({ channel: TEAM, timestamp: ref.messageId });
    expect(held()).toEqual(["thumbsup"]);
  });

  it("sends skin tones as thumbsup::skin-tone-N and a workspace's custom emoji as given", async () => {
    await react({ emoji: "👍🏽" });
    await react({ emoji: "thumbsup::skin-tone-3" });
    await react({ emoji: ":partyparrot:" });
    expect(calls("reactions.add").map((b) => b.name)).toEqual([
      "thumbsup::skin-tone-4",
      "thumbsup::skin-tone-3",
      "partyparrot",
    ]);
    expect(held()).toEqual(["thumbsup::skin-tone-4", "thumbsup::skin-tone-3", "partyparrot"]);
  });

  it("turns Slack's invalid_name into E_UNSUPPORTED_EMOJI with the closest standard names", async () => {
    const error = await failure({ emoji: "thumbsupp" });
    expect(error?.code).toBe("E_UNSUPPORTED_EMOJI");
    expect(error?.details?.alternatives).toContain("thumbsup");
    expect(error?.hint).toMatch(/^Try one of: /);
    const notAName = await failure({ emoji: "thumbs up!" });
    expect(notAName?.code).toBe("E_UNSUPPORTED_EMOJI");
    expect(calls("reactions.add").map((b) => b.name)).toEqual(["thumbsupp"]);
    expect(held()).toEqual([]);
  });

  it("remove: true removes only that emoji; removing what is not there succeeds (no_reaction)", async () => {
    await react({ emoji: "👍" });
    await react({ emoji: "❤️" });
    expect(await react({ emoji: "👍", remove: true })).toMatchObject({
      op: "remove",
      emoji: "thumbsup",
      removed: ["thumbsup"],
    });
    expect(held()).toEqual(["heart"]);
    expect(await react({ emoji: "👍", remove: true })).toMatchObject({ op: "remove", removed: [] });
    expect(held()).toEqual(["heart"]);
    expect((await failure({ emoji: "", remove: true }))?.code).toBe("E_EMOJI_REQUIRED");
  });

  it('emoji "" and clearAll remove every reaction of the bot (reactions.get full), never anyone else\'s', async () => {
    for (const call of [{ emoji: "" }, { clearAll: true }]) {
      await react({ emoji: "👍" });
      await react({ emoji: "🎉" });
      await fake.userReacts(TEAM, ref.messageId, ANN, "thumbsup");
      const result = await react(call);
      expect(result).toEqual({ ok: true, action: "react", op: "clear", removed: ["thumbsup", "tada"] });
      expect(held()).toEqual([]);
      expect(fake.reactionsBy(TEAM, ref.messageId, ANN)).toEqual(["thumbsup"]);
      await fake.userUnreacts(TEAM, ref.messageId, ANN, "thumbsup");
    }
    expect(calls("reactions.get").every((b) => b.full === "true")).toBe(true);
    expect(calls("reactions.remove").map((b) => b.name)).toEqual(["thumbsup", "tada", "thumbsup", "tada"]);
  });

  it("lists the reactions with counts and whether the bot is among the reactors", async () => {
    await react({ emoji: "👍" });
    await fake.userReacts(TEAM, ref.messageId, ANN, "+1");
    await fake.userReacts(TEAM, ref.messageId, ANN, "eyes");
    expect(await running.instance.listReactions?.(ref)).toEqual([
      { emoji: "thumbsup", count: 2, me: true },
      { emoji: "eyes", count: 1, me: false },
    ]);
  });

  it("maps message_not_found and channel_not_found to E_MESSAGE_NOT_FOUND", async () => {
    const gone = { ...ref, messageId: "1.000001" };
    const elsewhere = { ...ref, conversationId: "C0NOWHERE1" };
    for (const target of [gone, elsewhere]) {
      const error = await react({ emoji: "👍" }, target).catch((e: ChorusError) => e);
      expect((error as ChorusError).code).toBe("E_MESSAGE_NOT_FOUND");
    }
  });

  it("waits out a short 429 with Retry-After and succeeds; a longer one is E_RATE_LIMITED with retryAfterMs", async () => {
    fake.rateLimit("reactions.add", 1);
    const started = Date.now();
    await react({ emoji: "👍" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(fake.server.requestsTo("POST", "/api/reactions.add").map((r) => r.status)).toEqual([429, 200]);
    fake.rateLimit("reactions.add", 30);
    const error = await failure({ emoji: "🎉" });
    expect(error?.code).toBe("E_RATE_LIMITED");
    expect(error?.details?.retryAfterMs).toBe(30_000);
    // One request per attempt: Slack's own retry policy is off.
    expect(fake.server.requestsTo("POST", "/api/reactions.add").map((r) => r.status)).toEqual([429, 200, 429]);
  });
});
