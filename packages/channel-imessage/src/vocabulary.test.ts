import { describe, expect, it } from "vitest";
import { emojiOfTapbackText, parseTapbackType, targetGuid } from "./vocabulary.js";

describe("reading tapback rows", () => {
  it("associatedMessageType: names, numeric strings and numbers; anything else is no tapback", () => {
    expect(parseTapbackType("love")).toEqual({ kind: "love", removed: false });
    expect(parseTapbackType("-question")).toEqual({ kind: "question", removed: true });
    expect(parseTapbackType("emphasis")).toEqual({ kind: "emphasize", removed: false });
    expect(parseTapbackType("2000")).toEqual({ kind: "love", removed: false });
    expect(parseTapbackType("3001")).toEqual({ kind: "like", removed: true });
    expect(parseTapbackType(3005)).toEqual({ kind: "question", removed: true });
    expect(parseTapbackType("2006")).toEqual({ kind: "emoji", removed: false });
    expect(parseTapbackType("-emoji")).toEqual({ kind: "emoji", removed: true });
    for (const other of ["sticker", "1000", "2007", 0, "", null, undefined])
      expect(parseTapbackType(other)).toBe(undefined);
  });

  it("the emoji of an emoji tapback is the first one before the quoted message", () => {
    expect(emojiOfTapbackText("Reacted 🎉 to “Hi there”")).toBe("🎉");
    expect(emojiOfTapbackText("Removed 👍🏽 from “🍕 tonight?”")).toBe("👍🏽");
    expect(emojiOfTapbackText("A réagi avec 🇫🇷 à « Salut »")).toBe("🇫🇷");
    expect(emojiOfTapbackText("Reacted to “🍕”")).toBe(undefined);
    expect(emojiOfTapbackText(null)).toBe(undefined);
  });

  it("the tapped message's GUID without its part prefix", () => {
    expect(targetGuid("p:2/ABC")).toEqual({ guid: "ABC", part: 2 });
    expect(targetGuid("bp:ABC")).toEqual({ guid: "ABC", part: 0 });
    expect(targetGuid("ABC")).toEqual({ guid: "ABC", part: 0 });
  });
});
