import { BotReactionRecord } from "@chorus/channel-kit";
import type { MessageRef } from "@chorus/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Reactions } from "zca-js";
import { zalouserChannel } from "./index.js";
import { type LinkedChannel, linkedChannel, paramsSentTo } from "./test-support.test-util.js";
import { ANN, TEAM } from "./testing/fixture.js";

let world: LinkedChannel;
let ref: MessageRef;

beforeEach(async () => {
  world = await linkedChannel();
  const message = await world.fake.personSends({ from: ANN.id, group: TEAM, text: "react to me" });
  ref = (await world.inbound(message.msgId)).ref;
});

afterEach(() => world.close());

/** What the bot sent to Zalo's reaction endpoint, as `icon` (rType). */
const sentReactions = () =>
  paramsSentTo(world, "/api/group/reaction").map((params) => {
    const [item] = params.react_list as { message: string }[];
    const body = JSON.parse(item?.message ?? "{}") as {
      rIcon: string;
      rType: number;
      rMsg: { gMsgID: number; cMsgID: number }[];
    };
    return `${body.rIcon === "" ? "NONE" : body.rIcon} (${body.rType})`;
  });

const recorded = () => world.store.get(BotReactionRecord.key(ref));

describe("the vocabulary", () => {
  it("maps unicode, shortcodes, zca-js' enum names and Zalo's icon codes onto Zalo's icons", async () => {
    for (const emoji of ["👍", ":thumbsup:", "+1", "LIKE", "like", "/-strong"]) {
      expect(await world.react(ref, { emoji })).toEqual({ ok: true, action: "react", op: "add", emoji: "LIKE" });
    }
    for (const emoji of ["❤️", "😆", "😮", "😢", "😡", "👎", "🙏", "👌"]) await world.react(ref, { emoji });
    expect(world.fake.botReactions(ref.messageId)).toEqual([
      Reactions.LIKE,
      Reactions.HEART,
      Reactions.HAHA,
      Reactions.WOW,
      Reactions.CRY,
      Reactions.ANGRY,
      Reactions.DISLIKE,
      Reactions.PRAY,
      Reactions.OK,
    ]);
    // Added once: adding what the bot holds sends nothing (Zalo would count it again).
    expect(sentReactions().slice(0, 2)).toEqual(["/-strong (3)", "/-heart (5)"]);
  });

  it("refuses what Zalo has no icon for with E_UNSUPPORTED_EMOJI and the closest icons, before any request", async () => {
    const error = await world.react(ref, { emoji: "🦜" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "E_UNSUPPORTED_EMOJI", message: '"🦜" is not an allowed reaction on Zalo.' });
    const alternatives = (error as { details: { alternatives: string[] } }).details.alternatives;
    expect(alternatives.length).toBeGreaterThan(0);
    expect(alternatives.every((a) => zalouserChannel.capabilities.reactions.vocabulary?.includes(a))).toBe(true);
    await expect(world.react(ref, { emoji: "/-nothing" })).rejects.toMatchObject({ code: "E_UNSUPPORTED_EMOJI" });
    expect(sentReactions()).toEqual([]);
    expect(await recorded()).toBeUndefined();
  });
});

describe("reactions on Zalo (DESIGN §2.2, row Zalo Personal: no flags)", () => {
  it("remove: true clears the bot's icons and adds back the others, so exactly that one goes", async () => {
    await world.fake.personReacts(ANN.id, ref.messageId, Reactions.LIKE);
    await world.react(ref, { emoji: "👍" });
    await world.react(ref, { emoji: "❤️" });
    await world.react(ref, { emoji: "🙏" });
    expect(await world.react(ref, { emoji: "❤️", remove: true })).toEqual({
      ok: true,
      action: "react",
      op: "remove",
      emoji: "HEART",
      removed: ["HEART"],
    });
    expect(sentReactions()).toEqual([
      "/-strong (3)",
      "/-heart (5)",
      "_()_ (73)",
      "NONE (-1)",
      "/-strong (3)",
      "_()_ (73)",
    ]);
    expect(world.fake.botReactions(ref.messageId)).toEqual([Reactions.LIKE, Reactions.PRAY]);
    // Zalo's NONE clears only the caller's own: Ann's 👍 stays.
    expect(world.fake.reactionsBy(ref.messageId, ANN.id)).toEqual([Reactions.LIKE]);
    expect(await recorded()).toEqual([Reactions.LIKE, Reactions.PRAY]);
  });

  it("removing the bot's only icon sends just the clear", async () => {
    await world.react(ref, { emoji: "👍" });
    await world.react(ref, { emoji: "👍", remove: true });
    expect(sentReactions()).toEqual(["/-strong (3)", "NONE (-1)"]);
    expect(world.fake.botReactions(ref.messageId)).toEqual([]);
    expect(await recorded()).toBeUndefined();
  });

  it("removing an icon the bot does not hold succeeds and sends nothing (rule 10)", async () => {
    await world.react(ref, { emoji: "❤️" });
    expect(await world.react(ref, { emoji: "👍", remove: true })).toMatchObject({ op: "remove", removed: [] });
    expect(sentReactions()).toEqual(["/-heart (5)"]);
    expect(world.fake.botReactions(ref.messageId)).toEqual([Reactions.HEART]);
  });

  it('refuses emoji "" (emoji required) and clearAll (unsupported) before any request', async () => {
    await world.react(ref, { emoji: "👍" });
    await expect(world.react(ref, { emoji: "" })).rejects.toMatchObject({ code: "E_EMOJI_REQUIRED" });
    await expect(world.react(ref, { clearAll: true })).rejects.toMatchObject({ code: "E_UNSUPPORTED" });
    await expect(world.react(ref, { emoji: "", remove: true })).rejects.toMatchObject({ code: "E_EMOJI_REQUIRED" });
    expect(sentReactions()).toEqual(["/-strong (3)"]);
    expect(world.fake.botReactions(ref.messageId)).toEqual([Reactions.LIKE]);
  });

  it("names the message by msgId and cliMsgId in the group it is in", async () => {
    await world.react(ref, { emoji: "👍" });
    const [params] = paramsSentTo(world, "/api/group/reaction");
    expect(params?.grid).toBe(TEAM);
    const [item] = (params?.react_list ?? []) as { message: string }[];
    const body = JSON.parse(item?.message ?? "{}");
    expect(body.rMsg).toEqual([{ gMsgID: Number(ref.messageId), cMsgID: Number(ref.data?.cliMsgId), msgType: 1 }]);
  });

  it("fails with E_MESSAGE_NOT_FOUND for a ref without Zalo's handles, and for one Zalo does not know", async () => {
    const bare = { ...ref, data: { threadKind: "group" } };
    await expect(world.react(bare, { emoji: "👍" })).rejects.toMatchObject({ code: "E_MESSAGE_NOT_FOUND" });
    const noKind = { ...ref, data: { cliMsgId: "1" } };
    await expect(world.react(noKind, { emoji: "👍" })).rejects.toMatchObject({ code: "E_MESSAGE_NOT_FOUND" });
    expect(sentReactions()).toEqual([]);
    const unknown = { ...ref, messageId: "6299999999999" };
    await expect(world.react(unknown, { emoji: "👍" })).rejects.toMatchObject({ code: "E_PLATFORM", retryable: false });
  });

  it("reacts in a direct conversation on the user endpoint", async () => {
    const dm = await world.fake.personSends({ from: ANN.id, text: "hello there" });
    await world.react((await world.inbound(dm.msgId)).ref, { emoji: "😮" });
    expect(world.fake.botReactions(dm.msgId)).toEqual([Reactions.WOW]);
    expect(paramsSentTo(world, "/api/message/reaction")[0]?.toid).toBe(ANN.id);
  });
});
