import { describe, expect, it } from "vitest";
import {
  emojiKey,
  listEmoji,
  normalizeShortcode,
  type ResolvedEmoji,
  resolveEmoji,
  stripVariationSelectors,
  withSkinTone,
} from "./resolve.js";

const VS16 = "\uFE0F";
const ZWJ = "\u200D";

/** Resolves or fails the test, so the assertions after it can read fields. */
function resolved(input: string): ResolvedEmoji {
  const emoji = resolveEmoji(input);
  if (!emoji) throw new Error(`expected ${JSON.stringify(input)} to resolve`);
  return emoji;
}

describe("stripVariationSelectors", () => {
  it("removes U+FE0F and U+FE0E and nothing else", () => {
    expect(stripVariationSelectors(`\u2764${VS16}`)).toBe("\u2764");
    expect(stripVariationSelectors("\u2764\uFE0E")).toBe("\u2764");
    expect(stripVariationSelectors(`🏳${VS16}${ZWJ}🌈`)).toBe(`🏳${ZWJ}🌈`);
    expect(stripVariationSelectors("👍🏽 thumbsup")).toBe("👍🏽 thumbsup");
  });
});

describe("emojiKey", () => {
  it("is the code points in upper-case hex, joined by dashes", () => {
    expect(emojiKey("👍")).toBe("1F44D");
    expect(emojiKey("👍🏽")).toBe("1F44D-1F3FD");
    expect(emojiKey(`🏳${VS16}${ZWJ}🌈`)).toBe("1F3F3-200D-1F308");
  });

  it("is the same with and without variation selectors", () => {
    expect(emojiKey(`\u2764${VS16}`)).toBe(emojiKey("\u2764"));
    expect(emojiKey("\u2764\uFE0E")).toBe("2764");
  });

  it("tells different emoji apart", () => {
    expect(emojiKey("👍")).not.toBe(emojiKey("👎"));
    expect(emojiKey("")).toBe("");
  });
});

describe("normalizeShortcode", () => {
  it("trims, strips surrounding colons and lower-cases", () => {
    expect(normalizeShortcode("  :ThumbsUp: ")).toBe("thumbsup");
    expect(normalizeShortcode("+1")).toBe("+1");
    expect(normalizeShortcode("::")).toBe("::");
  });
});

describe("resolveEmoji: unicode", () => {
  it("finds ❤️ with and without U+FE0F as the same emoji", () => {
    const withSelector = resolved(`\u2764${VS16}`);
    const without = resolved("\u2764");
    expect(without).toBe(withSelector);
    expect(withSelector.unicode).toBe(`\u2764${VS16}`);
    expect(withSelector.bare).toBe("\u2764");
    expect(withSelector.hexcode).toBe("2764");
    expect(withSelector.shortcodes).toContain("heart");
  });

  it("finds 👍 with and without a (superfluous) U+FE0F as the same emoji", () => {
    const plain = resolved("👍");
    expect(resolved(`👍${VS16}`)).toBe(plain);
    expect(plain.bare).toBe("👍");
    expect(plain.label).toBe("thumbs up");
    expect(plain.shortcodes).toEqual(expect.arrayContaining(["+1", "thumbsup"]));
    expect(plain.skinTone).toBeUndefined();
    expect(plain.base).toBeUndefined();
  });

  it("finds a toned emoji with its tone and its untoned base", () => {
    const toned = resolved("👍🏽");
    expect(toned.hexcode).toBe("1F44D-1F3FD");
    expect(toned.bare).toBe("👍🏽");
    expect(toned.skinTone).toBe(3);
    expect(toned.base).toBe(resolved("👍"));
    expect(toned.shortcodes).toContain("thumbsup_tone3");
  });

  it("numbers tones 1 (light) to 5 (dark)", () => {
    expect(["👋🏻", "👋🏼", "👋🏽", "👋🏾", "👋🏿"].map((e) => resolved(e).skinTone)).toEqual([1, 2, 3, 4, 5]);
  });

  it("falls back to the base when a tone is put on an emoji that has none", () => {
    expect(resolved("❤🏽")).toBe(resolved("❤"));
  });

  it("finds ZWJ sequences with and without U+FE0F (🏳️‍🌈)", () => {
    const full = resolved(`🏳${VS16}${ZWJ}🌈`);
    expect(resolved(`🏳${ZWJ}🌈`)).toBe(full);
    expect(full.hexcode).toBe("1F3F3-FE0F-200D-1F308");
    expect(full.label).toBe("rainbow flag");
    expect(full.bare).toBe(`🏳${ZWJ}🌈`);
    expect(resolved(`👩${ZWJ}\u2764${ZWJ}👨`)).toBe(resolved(`👩${ZWJ}\u2764${VS16}${ZWJ}👨`));
  });

  it("finds a toned ZWJ sequence with its base", () => {
    const toned = resolved(`🙅🏼${ZWJ}\u2642${VS16}`);
    expect(toned.skinTone).toBe(2);
    expect(toned.base).toBe(resolved(`🙅${ZWJ}\u2642`));
  });

  it("finds keycaps, which start with an ASCII character (#️⃣, 1️⃣)", () => {
    expect(resolved(`#${VS16}\u20E3`).hexcode).toBe("0023-FE0F-20E3");
    expect(resolved("#\u20E3")).toBe(resolved(`#${VS16}\u20E3`));
    expect(resolved(`1${VS16}\u20E3`).shortcodes).toContain("one");
    expect(resolveEmoji("#")).toBeUndefined();
  });

  it("ignores surrounding whitespace", () => {
    expect(resolved("  👍\n")).toBe(resolved("👍"));
  });
});

describe("resolveEmoji: shortcodes", () => {
  it.each(["thumbsup", ":thumbsup:", "+1", ":+1:", "thumbs_up", "THUMBSUP", ":ThumbsUp:", "thumbs up", "thumbs-up"])(
    "%s is 👍",
    (input) => {
      expect(resolved(input).bare).toBe("👍");
    },
  );

  it.each(["heart", ":heart:", "Heart", "red_heart"])("%s is ❤️", (input) => {
    expect(resolved(input).unicode).toBe(`\u2764${VS16}`);
  });

  it("tells -1 from +1", () => {
    expect(resolved("-1").bare).toBe("👎");
    expect(resolved(":-1:").bare).toBe("👎");
    expect(resolved("thumbsdown").bare).toBe("👎");
  });

  it("prefers the GitHub/Slack meaning where data sets disagree on a name", () => {
    // emojibase's own shortcodes swap these two; Slack and GitHub users mean ☝️ by point_up.
    expect(resolved("point_up").bare).toBe("\u261D");
    expect(resolved(":point_up_2:").bare).toBe("👆");
    expect(resolved("umbrella").bare).toBe("☔");
    expect(resolved("snowman").bare).toBe("⛄");
  });

  it("resolves emojibase toned shortcodes (thumbsup_tone3)", () => {
    const toned = resolved("thumbsup_tone3");
    expect(toned).toBe(resolved("👍🏽"));
    expect(toned.skinTone).toBe(3);
    expect(resolved(":+1_tone5:").bare).toBe("👍🏿");
  });

  it.each([
    ["wave", 1, "👋🏻"],
    ["wave", 2, "👋🏼"],
    ["wave", 5, "👋🏿"],
    ["👍🏿", 3, "👍🏽"],
  ])("withSkinTone(%s, %i) is %s, its base kept", (input, tone, expected) => {
    const emoji = withSkinTone(resolved(input), tone);
    expect(emoji?.bare).toBe(expected);
    expect(emoji?.base).toBe((resolved(input).base ?? resolved(input)) as ResolvedEmoji);
  });

  it("puts a skin tone on the person of a ZWJ sequence", () => {
    const emoji = withSkinTone(resolved("man-gesturing-no"), 2);
    expect(emoji?.hexcode).toBe("1F645-1F3FC-200D-2642-FE0F");
    expect(emoji?.skinTone).toBe(2);
  });

  it("keeps an emoji that takes no tone, refuses a tone out of range, and reads no platform's tone syntax", () => {
    expect(withSkinTone(resolved("heart"), 3)).toBe(resolved("heart"));
    expect(withSkinTone(resolved("wave"), 6)).toBeUndefined();
    expect(withSkinTone(resolved("wave"), 0)).toBeUndefined();
    // Slack's `::skin-tone-N` is Slack's to read (channel-slack), not core's.
    expect(resolveEmoji(":wave::skin-tone-3:")).toBeUndefined();
  });

  it("resolves emoticons", () => {
    expect(resolved("<3")).toBe(resolved("heart"));
    expect(resolved(":)").bare).toBe("🙂");
  });
});

describe("resolveEmoji: not an emoji", () => {
  it.each(["", "   ", "\n\t"])("empty or whitespace %j is undefined", (input) => {
    expect(resolveEmoji(input)).toBeUndefined();
  });

  it.each(["notanemoji", ":notanemoji:", "thumbs", "THUMBSUP_TONE9", "é", "👍 thumbsup", ":", "::"])(
    "%j is undefined",
    (input) => {
      expect(resolveEmoji(input)).toBeUndefined();
    },
  );
});

describe("ResolvedEmoji", () => {
  it("is frozen and shared between lookups", () => {
    const emoji = resolved("👍");
    expect(Object.isFrozen(emoji)).toBe(true);
    expect(Object.isFrozen(emoji.shortcodes)).toBe(true);
    expect(resolved("thumbsup")).toBe(emoji);
  });

  it("carries tags, group and order for similarity", () => {
    const emoji = resolved("😂");
    expect(emoji.tags.length).toBeGreaterThan(0);
    expect(emoji.group).toBeTypeOf("number");
    expect(emoji.order).toBeTypeOf("number");
  });

  it("gives a toned emoji its base's tags when it has none of its own", () => {
    const toned = resolved("👍🏽");
    expect(toned.tags).toEqual(resolved("👍").tags);
  });
});

describe("listEmoji", () => {
  it("lists every emoji once, without skin-tone variants, each findable again", () => {
    const all = listEmoji();
    expect(all.length).toBeGreaterThan(1800);
    expect(new Set(all.map((e) => e.hexcode)).size).toBe(all.length);
    expect(all.some((e) => e.skinTone !== undefined)).toBe(false);
    expect(all.map((e) => e.bare)).toContain("👍");
    for (const emoji of all.slice(0, 50)) expect(resolveEmoji(emoji.unicode)?.hexcode).toBe(emoji.hexcode);
  });
});
