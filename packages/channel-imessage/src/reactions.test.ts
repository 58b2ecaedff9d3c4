import { type MessageRef, performReaction } from "@chorus/core";
import { faults, type RunningChannel, startChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { imessageChannel } from "./index.js";
import { createFakeBlueBubbles, type FakeBlueBubbles } from "./testing/index.js";

const GROUP = "iMessage;+;chat42";
const ANN = "+15550001111";
let fake: FakeBlueBubbles;
let running: RunningChannel;

beforeEach(async () => {
  fake = createFakeBlueBubbles();
  await fake.start();
  fake.addChat({ guid: GROUP, displayName: "Team", participants: [ANN] });
  running = await startChannel(imessageChannel, { config: fake.config() });
});

afterEach(async () => {
  await running.stop();
  await fake.close();
});

async function target(): Promise<{ guid: string; ref: MessageRef }> {
  const { guid } = fake.userSends({ chatGuid: GROUP, from: ANN, text: "react to me" });
  return { guid, ref: await running.instance.resolveMessageRef({ id: GROUP }, guid) };
}
const react = (ref: MessageRef, call: Record<string, unknown>) =>
  performReaction({ plugin: imessageChannel, instance: running.instance, ref, call });
const sentReactions = () => fake.server.requestsTo("POST", "/api/v1/message/react").map((r) => r.body);

describe("iMessage tapbacks (DESIGN §2.2 row: tapbackOnly, singleSlot, clearAll)", () => {
  it("add: emoji, shortcode and word all become one POST with the kind and the password in the query", async () => {
    const { guid, ref } = await target();
    expect(await react(ref, { emoji: "👍" })).toEqual({ ok: true, action: "react", op: "add", emoji: "like" });
    await react(ref, { emoji: ":thumbsup:" });
    await react(ref, { emoji: "LIKE" });
    expect(sentReactions()).toEqual([{ chatGuid: GROUP, selectedMessageGuid: guid, reaction: "like", partIndex: 0 }]);
    expect(fake.server.requestsTo("POST", "/api/v1/message/react")[0]?.query).toEqual({ password: "fake-password" });
    expect(fake.botTapbacks(guid)).toEqual(["like"]);
  });

  it("every alias of the issue maps onto its kind", async () => {
    const aliases: [string, string][] = [
      ["❤️", "love"],
      ["❤", "love"],
      ["heart", "love"],
      ["+1", "like"],
      ["👎", "dislike"],
      ["-1", "dislike"],
      ["thumbsdown", "dislike"],
      ["😂", "laugh"],
      ["🤣", "laugh"],
      ["haha", "laugh"],
      ["‼️", "emphasize"],
      ["!!", "emphasize"],
      ["❓", "question"],
      ["?", "question"],
    ];
    for (const [emoji, kind] of aliases) {
      const { guid, ref } = await target();
      await react(ref, { emoji });
      expect([emoji, fake.botTapbacks(guid)]).toEqual([emoji, [kind]]);
    }
  });

  it("a new tapback replaces the bot's previous one (one request, the server swaps it)", async () => {
    const { guid, ref } = await target();
    await react(ref, { emoji: "❤️" });
    await react(ref, { emoji: "😂" });
    expect(sentReactions().map((b) => (b as { reaction: string }).reaction)).toEqual(["love", "laugh"]);
    expect(fake.botTapbacks(guid)).toEqual(["laugh"]);
  });

  it("an emoji outside the six kinds is E_UNSUPPORTED_EMOJI listing them, with no request", async () => {
    const { ref } = await target();
    await expect(react(ref, { emoji: "🦜" })).rejects.toMatchObject({
      code: "E_UNSUPPORTED_EMOJI",
      message: expect.stringContaining("love, like, dislike, laugh, emphasize, question"),
    });
    expect(sentReactions()).toEqual([]);
  });

  it("remove with a recognised kind removes that kind only; another kind held stays", async () => {
    const { guid, ref } = await target();
    await react(ref, { emoji: "love" });
    expect(await react(ref, { emoji: "👍", remove: true })).toEqual({
      ok: true,
      action: "react",
      op: "remove",
      removed: [],
    });
    expect(fake.botTapbacks(guid)).toEqual(["love"]);
    expect(await react(ref, { emoji: "❤️", remove: true })).toEqual({
      ok: true,
      action: "react",
      op: "remove",
      removed: ["love"],
    });
    expect(sentReactions().map((b) => (b as { reaction: string }).reaction)).toEqual(["love", "-love"]);
    expect(fake.botTapbacks(guid)).toEqual([]);
  });

  it('emoji "", clearAll and remove of an unknown emoji take back whatever the bot holds, never others\' tapbacks', async () => {
    for (const call of [{ emoji: "" }, { clearAll: true }, { emoji: "🦜", remove: true }]) {
      const { guid, ref } = await target();
      fake.userTapback({ messageGuid: guid, from: ANN, reaction: "question" });
      await react(ref, { emoji: "‼️" });
      const result = await react(ref, call);
      expect(result).toMatchObject({ op: "clear", removed: ["emphasize"] });
      expect(fake.botTapbacks(guid)).toEqual([]);
      expect(fake.tapbacksBy(guid, ANN)).toEqual(["question"]);
      expect(sentReactions().at(-1)).toMatchObject({ reaction: "-emphasize" });
    }
  });

  it("clearing with nothing held, or removing an absent kind, sends nothing and succeeds", async () => {
    const { ref } = await target();
    await react(ref, { emoji: "" });
    await react(ref, { emoji: "like", remove: true });
    expect(sentReactions()).toEqual([]);
  });

  it("a tapback on a message part goes with its partIndex", async () => {
    const { guid, ref } = await target();
    await react({ ...ref, data: { part: 1 } }, { emoji: "like" });
    expect(sentReactions()).toEqual([{ chatGuid: GROUP, selectedMessageGuid: guid, reaction: "like", partIndex: 1 }]);
  });

  it("without the Private API the refusal is E_UNSUPPORTED and says how to enable it", async () => {
    fake.state.privateApi = false;
    const { guid, ref } = await target();
    await expect(react(ref, { emoji: "like" })).rejects.toMatchObject({
      code: "E_UNSUPPORTED",
      hint: expect.stringContaining("Private API"),
    });
    expect(fake.botTapbacks(guid)).toEqual([]);
  });

  it("an unknown message is E_MESSAGE_NOT_FOUND from the server's validation and leaves no record", async () => {
    const ref = await running.instance.resolveMessageRef({ id: GROUP }, "NO-SUCH-GUID");
    await expect(react(ref, { emoji: "like" })).rejects.toMatchObject({
      code: "E_MESSAGE_NOT_FOUND",
      message: expect.stringContaining("Selected message does not exist!"),
    });
    expect(await running.store.list("botReactions/")).toEqual([]);
  });

  it("the password never shows, also when a proxy echoes the URL it was sent to", async () => {
    const url = `${fake.url}/api/v1/message/react?password=fake-password`;
    const echoed = { status: 502, message: `upstream failed for ${url} (it said: bad password fake-password)` };
    fake.server.inject(faults.serverError({ path: "/api/v1/message/react" }, { status: 502, body: echoed, times: 3 }));
    const { ref } = await target();
    const error = await react(ref, { emoji: "like" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "E_PLATFORM", message: expect.stringContaining("upstream failed") });
    expect(JSON.stringify({ ...(error as object), message: (error as Error).message })).not.toContain("fake-password");
    expect(running.logs.text()).not.toContain("fake-password");
  });
});
