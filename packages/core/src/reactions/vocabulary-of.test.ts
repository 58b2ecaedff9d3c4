import { describe, expect, it } from "vitest";
import { ReactionVocabulary } from "../emoji/vocabulary.js";
import type { ChannelCapabilities } from "../plugin/plugin.js";
import { NO_REACTIONS } from "./capabilities.js";
import { vocabularyFromNames, vocabularyOf } from "./vocabulary-of.js";

function capabilities(vocabulary?: readonly string[]): ChannelCapabilities {
  const reactions = { ...NO_REACTIONS, addOnly: false, ...(vocabulary ? { vocabulary } : {}) };
  return {
    chatTypes: ["direct"],
    reactions,
    typing: false,
    inboundReactions: false,
    replies: false,
    threads: false,
    maxTextLength: 4096,
  };
}

describe("vocabularyOf", () => {
  it("is the plugin's own vocabulary where it has one", () => {
    const own = new ReactionVocabulary([{ name: "love", matches: ["❤️"] }]);
    expect(vocabularyOf({ capabilities: capabilities(["love"]), vocabulary: own })).toBe(own);
  });

  it("is built once from the names the capabilities declare", () => {
    const names = ["👍", "🔥"];
    const plugin = { capabilities: capabilities(names) };
    const first = vocabularyOf(plugin);
    expect(first?.names).toEqual(["👍", "🔥"]);
    expect(first?.lookup(":thumbsup:")).toBe("👍");
    expect(vocabularyOf(plugin)).toBe(first);
    expect(vocabularyFromNames(names)).toBe(first);
  });

  it("is undefined where any emoji goes", () => {
    expect(vocabularyOf({ capabilities: capabilities() })).toBeUndefined();
    expect(vocabularyOf({ capabilities: capabilities([]) })).toBeUndefined();
  });
});
