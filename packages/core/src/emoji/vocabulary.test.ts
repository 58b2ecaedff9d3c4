import { describe, expect, it } from "vitest";
import { ChorusError, UnsupportedEmojiError } from "../errors.js";
import { unsupportedEmoji } from "../reactions/unsupported.js";
import { defineVocabulary, ReactionVocabulary } from "./vocabulary.js";

/** iMessage tapbacks as the iMessage plugin declares them (DESIGN §2.2). */
const tapbacks = defineVocabulary([
  { name: "love", matches: ["❤️", "heart"] },
  { name: "like", matches: ["👍", "+1", "thumbsup"] },
  { name: "dislike", matches: ["👎", "-1", "thumbsdown"] },
  { name: "laugh", matches: ["😂", "🤣", "haha"] },
  { name: "emphasize", matches: ["‼️", "!!"] },
  { name: "question", matches: ["❓", "?"] },
]);

/** Part of Telegram's allowed reactions, written the way the Bot API writes them (no U+FE0F). */
const telegramLike = defineVocabulary([
  "👍",
  "👎",
  "❤",
  "🔥",
  "👏",
  "😁",
  "🤔",
  "😢",
  "🎉",
  "🙏",
  "👌",
  "💯",
  "🤣",
  "😭",
  "👀",
]);

/** A vocabulary named by shortcodes, like Slack's allowed list or a custom one. */
const shortcodeNamed = defineVocabulary(["thumbsup", "thumbsdown", "heart", "smile", "tada", "eyes"]);

describe("ReactionVocabulary.lookup", () => {
  it.each([
    ["love", "love"],
    ["❤️", "love"],
    ["heart", "love"],
    ["like", "like"],
    ["👍", "like"],
    ["+1", "like"],
    ["thumbsup", "like"],
    ["dislike", "dislike"],
    ["👎", "dislike"],
    ["-1", "dislike"],
    ["thumbsdown", "dislike"],
    ["laugh", "laugh"],
    ["😂", "laugh"],
    ["🤣", "laugh"],
    ["haha", "laugh"],
    ["emphasize", "emphasize"],
    ["‼️", "emphasize"],
    ["!!", "emphasize"],
    ["question", "question"],
    ["❓", "question"],
    ["?", "question"],
  ])("maps %s to the tapback %s", (input, kind) => {
    expect(tapbacks.lookup(input)).toBe(kind);
  });

  it("is case-insensitive and ignores colons and surrounding space", () => {
    expect(tapbacks.lookup("LOVE")).toBe("love");
    expect(tapbacks.lookup("Haha")).toBe("laugh");
    expect(tapbacks.lookup(":heart:")).toBe("love");
    expect(tapbacks.lookup(":+1:")).toBe("like");
    expect(tapbacks.lookup("  :ThumbsDown:  ")).toBe("dislike");
  });

  it("is insensitive to variation selectors", () => {
    expect(tapbacks.lookup("❤")).toBe("love");
    expect(tapbacks.lookup("\u2764\uFE0F")).toBe("love");
    expect(tapbacks.lookup("‼")).toBe("emphasize");
    expect(tapbacks.lookup("👍\uFE0F")).toBe("like");
    expect(telegramLike.lookup("❤️")).toBe("❤");
  });

  it("maps an emoji through every name it has, not only the ones listed", () => {
    expect(tapbacks.lookup("red_heart")).toBe("love");
    expect(tapbacks.lookup("<3")).toBe("love");
    expect(tapbacks.lookup("joy")).toBe("laugh");
    expect(tapbacks.lookup("bangbang")).toBe("emphasize");
    expect(telegramLike.lookup("fire")).toBe("🔥");
    expect(shortcodeNamed.lookup("👍")).toBe("thumbsup");
    expect(shortcodeNamed.lookup(":+1:")).toBe("thumbsup");
  });

  it("maps toned emoji via their base", () => {
    expect(tapbacks.lookup("👍🏽")).toBe("like");
    expect(tapbacks.lookup("👎🏿")).toBe("dislike");
    expect(tapbacks.lookup("thumbsup_tone2")).toBe("like");
    expect(telegramLike.lookup("👏🏻")).toBe("👏");
  });

  it("returns undefined for what maps onto no entry", () => {
    expect(tapbacks.lookup("🔥")).toBeUndefined();
    expect(tapbacks.lookup("😍")).toBeUndefined();
    expect(tapbacks.lookup("fire")).toBeUndefined();
    expect(tapbacks.lookup("lov")).toBeUndefined();
    expect(tapbacks.lookup("")).toBeUndefined();
    expect(shortcodeNamed.lookup("thumsup")).toBeUndefined();
  });

  it("gives an emoji listed twice to the first entry", () => {
    const vocabulary = defineVocabulary([
      { name: "first", matches: ["👍"] },
      { name: "second", matches: ["👍", "ok"] },
    ]);
    expect(vocabulary.lookup("👍")).toBe("first");
    expect(vocabulary.lookup("ok")).toBe("second");
  });

  it("keeps a platform name's case in what it returns (Feishu THUMBSUP)", () => {
    const feishu = defineVocabulary([
      { name: "THUMBSUP", matches: ["👍"] },
      { name: "HEART", matches: ["❤️"] },
    ]);
    expect(feishu.lookup("thumbsup")).toBe("THUMBSUP");
    expect(feishu.lookup("👍🏼")).toBe("THUMBSUP");
    expect(feishu.lookup("heart")).toBe("HEART");
  });
});

describe("ReactionVocabulary.names and has", () => {
  it("keeps the declared order and is frozen", () => {
    expect(tapbacks.names).toEqual(["love", "like", "dislike", "laugh", "emphasize", "question"]);
    expect(Object.isFrozen(tapbacks.names)).toBe(true);
  });

  it("has is exact (names, not matches)", () => {
    expect(tapbacks.has("love")).toBe(true);
    expect(tapbacks.has("heart")).toBe(false);
    expect(tapbacks.has("LOVE")).toBe(false);
  });

  it("defineVocabulary builds a ReactionVocabulary", () => {
    expect(defineVocabulary(["a"])).toBeInstanceOf(ReactionVocabulary);
  });
});

describe("ReactionVocabulary.closest", () => {
  it("returns `limit` names (3 by default), best first, all from the vocabulary", () => {
    const three = telegramLike.closest("🍕");
    expect(three).toHaveLength(3);
    for (const name of three) expect(telegramLike.has(name)).toBe(true);
    expect(new Set(three).size).toBe(3);
    expect(telegramLike.closest("🍕", 5)).toHaveLength(5);
    expect(telegramLike.closest("🍕", 5).slice(0, 3)).toEqual(three);
    expect(telegramLike.closest("🍕", 0)).toEqual([]);
  });

  it("returns every name when limit exceeds the vocabulary", () => {
    expect([...tapbacks.closest("🔥", 100)].sort()).toEqual([...tapbacks.names].sort());
  });

  it("puts the exact match first", () => {
    expect(tapbacks.closest("❤️")[0]).toBe("love");
    expect(tapbacks.closest("👍🏽")[0]).toBe("like");
    expect(telegramLike.closest("🔥")[0]).toBe("🔥");
  });

  it("offers a heart for 😍 in a Telegram-like set", () => {
    expect(telegramLike.lookup("😍")).toBeUndefined();
    expect(telegramLike.closest("😍")).toContain("❤");
  });

  it("offers love first for 😍 among tapbacks", () => {
    expect(tapbacks.closest("😍")[0]).toBe("love");
  });

  it("finds thumbsup for the typo thumsup in a shortcode-named set", () => {
    expect(shortcodeNamed.closest("thumsup")[0]).toBe("thumbsup");
    expect(shortcodeNamed.closest("hart", 1)).toEqual(["heart"]);
  });

  it("finds an entry by any of its emoji's shortcodes", () => {
    expect(telegramLike.closest("thumbs_up", 1)).toEqual(["👍"]);
  });

  it("is deterministic: ties keep the declared order", () => {
    const plain = defineVocabulary(["zz-one", "zz-two", "zz-three"]);
    expect(plain.closest("qqqqqqq", 3)).toEqual(["zz-one", "zz-two", "zz-three"]);
  });
});

describe("ReactionVocabulary.restrict", () => {
  it("narrows to the given names, keeping the declared order", () => {
    const narrowed = tapbacks.restrict(["question", "love"]);
    expect(narrowed.names).toEqual(["love", "question"]);
    expect(narrowed.lookup("❤")).toBe("love");
    expect(narrowed.lookup("?")).toBe("question");
    expect(narrowed.lookup("👍")).toBeUndefined();
    expect(narrowed.closest("👍", 5).every((name) => name === "love" || name === "question")).toBe(true);
  });

  it("ignores names it does not know and leaves the original alone", () => {
    const narrowed = telegramLike.restrict(["👍", "🦄"]);
    expect(narrowed.names).toEqual(["👍"]);
    expect(telegramLike.names).toHaveLength(15);
    expect(telegramLike.lookup("🔥")).toBe("🔥");
  });

  it("closest in a narrowed Telegram set still offers a heart for 😍", () => {
    expect(telegramLike.restrict(["👍", "👎", "❤", "🔥"]).closest("😍", 1)).toEqual(["❤"]);
  });

  it("keeps case-sensitive matches working (emoticon :D)", () => {
    const vocabulary = defineVocabulary([
      { name: "grinning", matches: [":D"] },
      { name: "fire", matches: ["🔥"] },
    ]);
    expect(vocabulary.lookup("😄")).toBe("grinning");
    expect(vocabulary.restrict(["grinning"]).lookup("😄")).toBe("grinning");
  });

  it("can narrow to nothing", () => {
    const empty = tapbacks.restrict([]);
    expect(empty.names).toEqual([]);
    expect(empty.lookup("love")).toBeUndefined();
    expect(empty.closest("love")).toEqual([]);
  });
});

describe("unsupportedEmoji", () => {
  it("is E_UNSUPPORTED_EMOJI with the closest alternatives and a hint naming them", () => {
    const error = unsupportedEmoji("😍", telegramLike, "Telegram");
    expect(error).toBeInstanceOf(UnsupportedEmojiError);
    expect(error).toBeInstanceOf(ChorusError);
    expect(error.code).toBe("E_UNSUPPORTED_EMOJI");
    expect(error.retryable).toBe(false);
    expect(error.message).toBe('"😍" is not an allowed reaction on Telegram.');
    expect(error.emoji).toBe("😍");
    expect(error.alternatives).toHaveLength(3);
    expect(error.alternatives).toContain("❤");
    expect(error.details).toEqual({ emoji: "😍", alternatives: [...error.alternatives] });
    expect(error.hint).toBe(`Try one of: ${error.alternatives.join(", ")}`);
  });

  it("says 'this channel' without a label, and honours limit", () => {
    const error = unsupportedEmoji("🍕", tapbacks, undefined, 2);
    expect(error.message).toContain("on this channel");
    expect(error.alternatives).toHaveLength(2);
    expect(error.alternatives).toEqual(tapbacks.closest("🍕", 2));
    for (const name of error.alternatives) expect(tapbacks.has(name)).toBe(true);
  });

  it("serialises for the agent with alternatives and without a stack", () => {
    const json = JSON.parse(JSON.stringify(unsupportedEmoji("🍕", telegramLike, "Telegram")));
    expect(json.code).toBe("E_UNSUPPORTED_EMOJI");
    expect(json.details.alternatives).toHaveLength(3);
    expect(json.hint).toMatch(/^Try one of: /);
    expect(json.stack).toBeUndefined();
  });

  it("has no hint when there is nothing to offer", () => {
    const error = unsupportedEmoji("🍕", tapbacks.restrict([]));
    expect(error.alternatives).toEqual([]);
    expect(error.hint).toBeUndefined();
  });
});
