import { resolveEmoji } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { feishuChannel } from "./index.js";
import { EMOJI_OF_TYPE, emojiOfType, FEISHU_EMOJI_TYPES, feishuVocabulary } from "./vocabulary.js";

describe("the emoji_type vocabulary", () => {
  it("is Feishu's official list, mixed-case and without two names that differ only in case", () => {
    expect(FEISHU_EMOJI_TYPES).toHaveLength(182);
    expect(FEISHU_EMOJI_TYPES.slice(0, 6)).toEqual(["OK", "THUMBSUP", "THANKS", "MUSCLE", "FINGERHEART", "APPLAUSE"]);
    for (const name of ["ThumbsDown", "Fire", "CheckMark", "CrossMark", "Hundred", "Coffee", "HEART", "GLANCE"]) {
      expect(FEISHU_EMOJI_TYPES).toContain(name);
    }
    // What some third-party lists claim, and Feishu refuses.
    for (const wrong of ["THUMBSDOWN", "FIRE", "CHECK", "CROSS", "GRINNING", "LAUGHING"]) {
      expect(FEISHU_EMOJI_TYPES).not.toContain(wrong);
    }
    expect(new Set(FEISHU_EMOJI_TYPES.map((n) => n.toLowerCase())).size).toBe(FEISHU_EMOJI_TYPES.length);
    expect(feishuChannel.capabilities.reactions.vocabulary).toEqual(FEISHU_EMOJI_TYPES);
  });

  it("maps each unicode emoji onto exactly one name, and every mapped emoji is a real one", () => {
    const emoji = Object.values(EMOJI_OF_TYPE);
    expect(new Set(emoji).size).toBe(emoji.length);
    for (const [name, unicode] of Object.entries(EMOJI_OF_TYPE)) {
      expect(FEISHU_EMOJI_TYPES).toContain(name);
      expect(resolveEmoji(unicode), `${name} ${unicode}`).toBeDefined();
      expect(feishuVocabulary.lookup(unicode)).toBe(name);
    }
  });

  it("takes the issue's examples in unicode, shortcodes and native names", () => {
    const cases: [string, string][] = [
      ["👍", "THUMBSUP"],
      ["👎", "ThumbsDown"],
      ["❤️", "HEART"],
      ["❤", "HEART"],
      ["😄", "SMILE"],
      ["😂", "LAUGH"],
      ["👌", "OK"],
      ["👏", "APPLAUSE"],
      ["🙏", "THANKS"],
      ["🎉", "PARTY"],
      ["🔥", "Fire"],
      ["✅", "CheckMark"],
      ["❌", "CrossMark"],
      ["🤔", "THINKING"],
      ["👀", "GLANCE"],
      ["💯", "Hundred"],
      [":thumbsup:", "THUMBSUP"],
      ["+1", "THUMBSUP"],
      ["-1", "ThumbsDown"],
      ["tada", "PARTY"],
      ["white_check_mark", "CheckMark"],
      ["JIAYI", "JIAYI"],
    ];
    for (const [input, name] of cases) expect(feishuVocabulary.lookup(input), input).toBe(name);
  });

  it("resolves a native name in the wrong case to its canonical spelling", () => {
    expect(feishuVocabulary.lookup("THUMBSDOWN")).toBe("ThumbsDown");
    expect(feishuVocabulary.lookup("fire")).toBe("Fire");
    expect(feishuVocabulary.lookup("CHECKMARK")).toBe("CheckMark");
    expect(feishuVocabulary.lookup("thumbsup")).toBe("THUMBSUP");
    expect(feishuVocabulary.lookup(":Hundred:")).toBe("Hundred");
  });

  it("finds nothing for an emoji Feishu has no reaction for, and suggests names from the list", () => {
    expect(feishuVocabulary.lookup("🦜")).toBeUndefined();
    expect(feishuVocabulary.lookup("GRINNING")).toBeUndefined();
    const closest = feishuVocabulary.closest("THUMBSDWN");
    expect(closest[0]).toBe("ThumbsDown");
    for (const name of closest) expect(FEISHU_EMOJI_TYPES).toContain(name);
  });

  it("shows an emoji_type as its emoji, and a sticker without one by its name", () => {
    expect(emojiOfType("THUMBSUP")).toBe("👍");
    expect(emojiOfType("JIAYI")).toBe("JIAYI");
    expect(emojiOfType("SomethingNew")).toBe("SomethingNew");
  });
});
