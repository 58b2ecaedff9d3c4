import { describe, expect, it } from "vitest";
import { splitText } from "./split.js";

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** The grapheme clusters of a text, in order. */
function clusters(text: string): string[] {
  return [...graphemes.segment(text)].map((s) => s.segment);
}

/** The words of a text (whitespace-separated), in order. */
function words(text: string): string[] {
  return text.split(/\s+/u).filter((w) => w !== "");
}

/** The text without any whitespace: what a split must preserve, in order. */
function visible(text: string): string {
  return text.replace(/\s+/gu, "");
}

const LONE_SURROGATE_AT_EDGE = /^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/u;
const bytes = (text: string) => Buffer.byteLength(text, "utf8");

describe("splitText: short text", () => {
  it("returns text within the limit unchanged, as one part", () => {
    expect(splitText("Hello there", 100)).toEqual(["Hello there"]);
    expect(splitText("exactly10!", 10)).toEqual(["exactly10!"]);
    expect(splitText("  keeps\n\nits  whitespace ", 100)).toEqual(["  keeps\n\nits  whitespace "]);
  });

  it("returns the empty text as one empty part", () => {
    expect(splitText("", 5)).toEqual([""]);
  });
});

describe("splitText: boundaries", () => {
  it("cuts at a paragraph break before a line, sentence or word boundary", () => {
    const text = "First paragraph. It has\ntwo lines.\n\nSecond paragraph here.";
    expect(splitText(text, 45)).toEqual(["First paragraph. It has\ntwo lines.", "Second paragraph here."]);
  });

  it("cuts at a line break when no paragraph break fits", () => {
    const text = "Shopping list. Eggs and milk\nBread and butter. Jam too";
    expect(splitText(text, 40)).toEqual(["Shopping list. Eggs and milk", "Bread and butter. Jam too"]);
  });

  it("cuts after a sentence when no line break fits", () => {
    const text = "The deploy finished at noon. Nobody noticed anything odd! Then the pager went off?";
    expect(splitText(text, 60)).toEqual([
      "The deploy finished at noon. Nobody noticed anything odd!",
      "Then the pager went off?",
    ]);
  });

  it("recognises the ellipsis as a sentence end", () => {
    expect(splitText("Let me think… Okay, the answer is forty two", 30)).toEqual([
      "Let me think…",
      "Okay, the answer is forty two",
    ]);
  });

  it("cuts between words when there is no sentence end", () => {
    const text = "one two three four five six seven eight nine ten";
    const parts = splitText(text, 20);
    expect(parts).toEqual(["one two three four", "five six seven eight", "nine ten"]);
  });

  it("skips a coarse boundary that would leave a tiny part in favour of a finer one further on", () => {
    // The paragraph break comes after 2 of 40 characters; the line break keeps most of the room.
    const text = "Hi\n\nthis line is long enough to matter\nand another line follows here";
    const parts = splitText(text, 40);
    expect(parts[0]).toBe("Hi\n\nthis line is long enough to matter");
    expect(parts.slice(1)).toEqual(["and another line follows here"]);
  });

  it("trims the whitespace at each cut and never emits an empty part", () => {
    const text = "alpha beta   \n\n\n   gamma delta epsilon";
    const parts = splitText(text, 12);
    for (const part of parts) {
      expect(part).not.toBe("");
      expect(part).toBe(part.trim());
    }
    expect(words(parts.join(" "))).toEqual(words(text));
  });

  it("keeps a word that fits in a part whole, even when the word before it is short", () => {
    const long = "b".repeat(29);
    expect(splitText(`aaaa ${long} cc`, 30)).toEqual(["aaaa", long, "cc"]);
  });
});

describe("splitText: limits and content", () => {
  const article = [
    "Chorus runs one agent in many chat apps. Each app is a channel plugin.",
    "A plugin turns platform events into normalised events.\nIt also sends replies, reactions and typing indicators.",
    "Long replies are split at the platform's length limit! Parts stay readable: paragraphs first, then lines, then sentences, then words.",
  ].join("\n\n");

  for (const limit of [20, 37, 50, 64, 80, 120]) {
    it(`never exceeds the limit and loses no word (limit ${limit})`, () => {
      const parts = splitText(article, limit);
      expect(parts.length).toBeGreaterThan(1);
      for (const part of parts) expect(part.length).toBeLessThanOrEqual(limit);
      expect(words(parts.join(" "))).toEqual(words(article));
    });
  }

  it("hard-cuts a single word longer than the limit", () => {
    expect(splitText("x".repeat(25), 10)).toEqual(["x".repeat(10), "x".repeat(10), "x".repeat(5)]);
  });

  it("hard-cuts a long URL but keeps the surrounding words whole", () => {
    const url = `https://example.com/${"a".repeat(60)}`;
    const parts = splitText(`see ${url} please`, 30);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(30);
    expect(parts[0]).toBe("see");
    expect(parts.at(-1)?.endsWith("please")).toBe(true);
    expect(visible(parts.join(""))).toBe(visible(`see ${url} please`));
  });
});

describe("splitText: unicode", () => {
  it("never cuts a surrogate pair", () => {
    const text = "😀".repeat(30);
    for (const limit of [3, 5, 7, 11]) {
      const parts = splitText(text, limit);
      for (const part of parts) {
        expect(part).not.toMatch(LONE_SURROGATE_AT_EDGE);
        expect(part.length).toBeLessThanOrEqual(limit);
      }
      expect(parts.join("")).toBe(text);
    }
  });

  it("keeps a surrogate pair whole at limit 1, the only part allowed over the limit", () => {
    expect(splitText("😀😀a", 1)).toEqual(["😀", "😀", "a"]);
  });

  it("never cuts a ZWJ sequence, skin tone or flag that fits in the limit", () => {
    const family = "👨‍👩‍👧‍👦"; // 11 UTF-16 units
    const thumbs = "👍🏽"; // 4
    const flag = "🇩🇪"; // 4
    const facepalm = "🤦🏻‍♀️"; // 7
    const text = `${family}${thumbs}${flag}${facepalm}`.repeat(6);
    for (const limit of [11, 12, 15, 20, 33]) {
      const parts = splitText(text, limit);
      for (const part of parts) expect(part.length).toBeLessThanOrEqual(limit);
      expect(parts.flatMap(clusters)).toEqual(clusters(text));
    }
  });

  it("keeps emoji graphemes whole between words", () => {
    const text = "ok 👍🏽 great 👨‍👩‍👧‍👦 family 🇩🇪 flag";
    const parts = splitText(text, 12);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(12);
    expect(parts.flatMap(clusters).filter((c) => c.trim() !== "")).toEqual(
      clusters(text).filter((c) => c.trim() !== ""),
    );
  });
});

describe("splitText: custom measure", () => {
  it("respects a UTF-8 byte limit", () => {
    const text = "Grüße aus Köln, schöne Grüße zurück! Äpfel über Öl.";
    const parts = splitText(text, 16, bytes);
    expect(parts.length).toBeGreaterThan(splitText(text, 16).length);
    for (const part of parts) expect(bytes(part)).toBeLessThanOrEqual(16);
    expect(words(parts.join(" "))).toEqual(words(text));
  });

  it("keeps 4-byte emoji whole under a byte limit", () => {
    const text = "🎉".repeat(10);
    const parts = splitText(text, 9, bytes);
    expect(parts).toEqual(["🎉🎉", "🎉🎉", "🎉🎉", "🎉🎉", "🎉🎉"]);
  });

  it("measures the whole text with the custom measure", () => {
    // 6 characters but 12 bytes: splits under a byte limit of 10, not under a 10-unit limit.
    expect(splitText("ääääää", 10)).toEqual(["ääääää"]);
    expect(splitText("ääääää", 10, bytes)).toEqual(["äääää", "ä"]);
  });
});

describe("splitText: invalid limits", () => {
  for (const limit of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
    it(`rejects limit ${limit} with a RangeError`, () => {
      expect(() => splitText("text", limit)).toThrow(RangeError);
      expect(() => splitText("text", limit)).toThrow(/limit must be a positive integer/);
    });
  }
});

describe("splitText: large input", () => {
  it("splits a 100,000-character text", () => {
    const sentence = "The quick brown fox jumps over the lazy dog. ";
    const text = sentence.repeat(Math.ceil(100_000 / sentence.length)).slice(0, 100_000);
    const parts = splitText(text, 2000);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(2000);
    expect(words(parts.join(" "))).toEqual(words(text));
  });

  it("splits a 100,000-character word into small parts", () => {
    const parts = splitText("x".repeat(100_000), 7);
    expect(parts).toHaveLength(Math.ceil(100_000 / 7));
    expect(parts.join("")).toHaveLength(100_000);
  });

  it("splits a 100,000-character text under a byte measure", () => {
    const parts = splitText("é ".repeat(50_000), 50, bytes);
    for (const part of parts) expect(bytes(part)).toBeLessThanOrEqual(50);
    expect(visible(parts.join(""))).toBe("é".repeat(50_000));
  });
});
