import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { splitText } from "./split.js";

// Properties of splitText over generated input; the worked examples are in split.test.ts.

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

describe("splitText: properties", () => {
  const prose = fc.string({
    unit: fc.constantFrom("a", "b", "Z", "é", "ß", " ", " ", "\n", "\n\n", ".", "!", "?", "…", "\t", ","),
    maxLength: 600,
  });

  it("every part fits and the visible characters are preserved in order (arbitrary strings)", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 600 }), prose), fc.integer({ min: 1, max: 200 }), (text, limit) => {
        const parts = splitText(text, limit);
        for (const part of parts) expect(part.length).toBeLessThanOrEqual(limit);
        expect(visible(parts.join(""))).toBe(visible(text));
      }),
      { numRuns: 500 },
    );
  });

  it("with any unicode, parts fit (limit ≥ 2), never start or end inside a surrogate pair, and keep every code point", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 300 }), fc.integer({ min: 2, max: 200 }), (text, limit) => {
        const parts = splitText(text, limit);
        for (const part of parts) {
          expect(part.length).toBeLessThanOrEqual(limit);
          expect(part).not.toMatch(LONE_SURROGATE_AT_EDGE);
        }
        expect(visible(parts.join(""))).toBe(visible(text));
      }),
      { numRuns: 300 },
    );
  });

  it("keeps words whole when every word fits in the limit", () => {
    const separator = fc.constantFrom(" ", "  ", "\n", "\n\n", " \n ");
    const textFor = (limit: number) => {
      const word = fc.string({ unit: fc.constantFrom("a", "b", "c", "ö", "."), minLength: 1, maxLength: limit });
      return fc
        .array(fc.tuple(word, separator), { minLength: 1, maxLength: 40 })
        .map((pairs) => pairs.map(([w, s]) => w + s).join(""));
    };
    const limitAndText = fc
      .integer({ min: 1, max: 120 })
      .chain((limit) => fc.tuple(textFor(limit), fc.constant(limit)));
    fc.assert(
      fc.property(limitAndText, ([input, limit]) => {
        const parts = splitText(input, limit);
        for (const part of parts) expect(part.length).toBeLessThanOrEqual(limit);
        expect(words(parts.join(" "))).toEqual(words(input));
      }),
      { numRuns: 300 },
    );
  });

  it("never cuts a grapheme that fits in the limit", () => {
    const cluster = fc.constantFrom(
      "👨‍👩‍👧‍👦",
      "👍🏽",
      "👍",
      "🇩🇪",
      "🇫🇷",
      "🤦🏻‍♀️",
      "a",
      "é",
      "e\u0301",
      "ß",
      " ",
      "\n",
      ". ",
    );
    const text = fc.array(cluster, { maxLength: 120 }).map((list) => list.join(""));
    fc.assert(
      fc.property(text, fc.integer({ min: 11, max: 60 }), (input, limit) => {
        const parts = splitText(input, limit);
        for (const part of parts) expect(part.length).toBeLessThanOrEqual(limit);
        const nonBlank = (list: string[]) => list.filter((c) => c.trim() !== "");
        expect(nonBlank(parts.flatMap(clusters))).toEqual(nonBlank(clusters(input)));
      }),
      { numRuns: 300 },
    );
  });

  it("respects a byte measure for arbitrary unicode (limit ≥ 4)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 200 }), fc.integer({ min: 4, max: 100 }), (text, limit) => {
        const parts = splitText(text, limit, bytes);
        for (const part of parts) expect(bytes(part)).toBeLessThanOrEqual(limit);
        expect(visible(parts.join(""))).toBe(visible(text));
      }),
      { numRuns: 200 },
    );
  });
});
