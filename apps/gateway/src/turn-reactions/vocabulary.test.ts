import { createMemoryChannel } from "@chorus/testkit";
import { describe, expect, it } from "vitest";
import type { ReactionPlugin } from "./target.js";
import { ACK_FALLBACKS, candidatesFor, sameReaction } from "./vocabulary.js";

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

/** The form the ack would place: the first candidate, with the ack's fallbacks unless given. */
const first = (emoji: string, plugin: ReactionPlugin, fallbacks: readonly string[] = ACK_FALLBACKS) =>
  candidatesFor(emoji, plugin, fallbacks)[0];

describe("candidatesFor: the first allowed form (what the ack places)", () => {
  it("passes any emoji through where the channel has no closed set", () => {
    expect(first("👀", open)).toBe("👀");
    expect(first(":eyes:", open)).toBe(":eyes:");
  });

  it("maps into the vocabulary, and falls back to 👀, 👍, ❤️ in that order where the emoji is not allowed", () => {
    expect(first("🔥", telegramLike)).toBe("🔥");
    expect(first("👀", telegramLike)).toBe("👍");
    expect(first("✅", telegramLike, ["🙏", "😱"])).toBe("😱");
    expect(first("👀", namesOnly)).toBe("❤️");
  });

  it("returns the platform's own name on a tapback channel", () => {
    expect(first("❤", tapbacks)).toBe("love");
    expect(first("👀", tapbacks)).toBe("like");
    expect(first("🤔", tapbacks, ["❓"])).toBe("question");
  });

  it("is undefined for an empty emoji (configured as none), whatever the fallbacks", () => {
    expect(first("", open)).toBeUndefined();
    expect(first("  ", telegramLike)).toBeUndefined();
  });

  it("is undefined when neither the emoji nor a fallback is allowed", () => {
    expect(first("👀", telegramLike, [])).toBeUndefined();
    expect(first("🛠️", tapbacks, ["⚡"])).toBeUndefined();
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
