import { createMemoryChannel } from "@chorus/testkit";
import { describe, expect, it } from "vitest";
import type { ReactionPlugin } from "./surface.js";
import { candidatesFor, mapToChannel, sameReaction } from "./vocabulary.js";

const open = createMemoryChannel();
const telegramLike = createMemoryChannel({ reactions: { singleSlot: true }, vocabulary: ["👍", "🔥", "🤔", "😱"] });
const tapbacks = createMemoryChannel({
  reactions: { singleSlot: true, tapbackOnly: true },
  vocabulary: [
    { name: "love", matches: ["❤️", "heart"] },
    { name: "like", matches: ["👍"] },
    { name: "dislike", matches: ["👎"] },
    { name: "question", matches: ["❓"] },
  ],
});
/** A plugin that declares its closed set only as names in its capabilities. */
const namesOnly: ReactionPlugin = {
  label: "Names",
  capabilities: {
    ...open.capabilities,
    reactions: { ...open.capabilities.reactions, vocabulary: ["❤️", "🔥"] },
  },
};

describe("mapToChannel", () => {
  it("passes any emoji through where the channel has no closed set", () => {
    expect(mapToChannel("👀", open)).toBe("👀");
    expect(mapToChannel(":eyes:", open)).toBe(":eyes:");
  });

  it("maps into the vocabulary, and falls back to 👀, 👍, ❤️ in that order where the emoji is not allowed", () => {
    expect(mapToChannel("🔥", telegramLike)).toBe("🔥");
    expect(mapToChannel("👀", telegramLike)).toBe("👍");
    expect(mapToChannel("✅", telegramLike, ["🙏", "😱"])).toBe("😱");
    expect(mapToChannel("👀", namesOnly)).toBe("❤️");
  });

  it("returns the platform's own name on a tapback channel", () => {
    expect(mapToChannel("❤", tapbacks)).toBe("love");
    expect(mapToChannel("👀", tapbacks)).toBe("like");
    expect(mapToChannel("🤔", tapbacks, ["❓"])).toBe("question");
  });

  it("is undefined for an empty emoji (configured as none), whatever the fallbacks", () => {
    expect(mapToChannel("", open)).toBeUndefined();
    expect(mapToChannel("  ", telegramLike)).toBeUndefined();
  });

  it("is undefined when neither the emoji nor a fallback is allowed", () => {
    expect(mapToChannel("👀", telegramLike, [])).toBeUndefined();
    expect(mapToChannel("🛠️", tapbacks, ["⚡"])).toBeUndefined();
  });
});

describe("candidatesFor", () => {
  it("lists every allowed form once, best first", () => {
    expect(candidatesFor("👀", telegramLike, ["👀", "👍", "thumbsup", "🔥"])).toEqual(["👍", "🔥"]);
    expect(candidatesFor("❤️", tapbacks, ["heart", "👍"])).toEqual(["love", "like"]);
    expect(candidatesFor("👀", open, ["👀", "👍"])).toEqual(["👀", "👍"]);
  });
});

describe("sameReaction", () => {
  it("compares emoji, shortcodes and variation selectors as one", () => {
    expect(sameReaction("👍", ":thumbsup:", open)).toBe(true);
    expect(sameReaction("❤️", "❤", open)).toBe(true);
    expect(sameReaction("👍", "👎", open)).toBe(false);
  });

  it("compares by vocabulary entry on a closed set", () => {
    expect(sameReaction("like", "👍", tapbacks)).toBe(true);
    expect(sameReaction("love", "heart", tapbacks)).toBe(true);
    expect(sameReaction("love", "like", tapbacks)).toBe(false);
  });
});
