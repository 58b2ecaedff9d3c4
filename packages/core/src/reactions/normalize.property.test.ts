import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defineVocabulary } from "../emoji/vocabulary.js";
import { ChorusError } from "../errors.js";
import type { ReactionCapabilities } from "./capabilities.js";
import { normalizeReaction } from "./normalize.js";

const kinds = defineVocabulary(["love", "like", "dislike"]);

const capabilities: fc.Arbitrary<ReactionCapabilities> = fc
  .record({
    clearAll: fc.constantFrom(true, false, "explicit" as const),
    singleSlot: fc.boolean(),
    tapbackOnly: fc.boolean(),
    addOnly: fc.boolean(),
    list: fc.boolean(),
  })
  .map((c) => (c.tapbackOnly ? { ...c, vocabulary: kinds.names } : c));

const emojiLike = fc.oneof(
  fc.constantFrom("", " ", "👍", "❤️", "❤", ":+1:", "thumbsup", "love", "🦜", "👍🏽", "name:123", "<:x:1>"),
  fc.string(),
  fc.string({ unit: "grapheme" }),
  fc.string({ unit: "binary", maxLength: 200 }),
);

const anyCall = fc.oneof(
  fc.record(
    {
      emoji: fc.oneof(emojiLike, fc.constant(null), fc.anything()),
      remove: fc.oneof(fc.boolean(), fc.anything()),
      clearAll: fc.oneof(fc.boolean(), fc.anything()),
    },
    { requiredKeys: [] },
  ),
  fc.anything(),
);

describe("normalizeReaction on arbitrary input", () => {
  it("either returns one intent or throws a ChorusError, nothing else", () => {
    fc.assert(
      fc.property(anyCall, capabilities, fc.boolean(), (call, caps, withVocabulary) => {
        try {
          const intent = normalizeReaction(call, caps, withVocabulary ? kinds : undefined);
          expect(["add", "remove", "clear"]).toContain(intent.op);
        } catch (error) {
          if (!(error instanceof ChorusError)) throw error;
        }
      }),
      { numRuns: 3000 },
    );
  });

  it("add-only channels never produce a remove or clear", () => {
    fc.assert(
      fc.property(anyCall, capabilities, (call, caps) => {
        const addOnly = { ...caps, addOnly: true, clearAll: false };
        try {
          expect(normalizeReaction(call, addOnly).op).toBe("add");
        } catch (error) {
          expect(error).toBeInstanceOf(ChorusError);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("an intent to clear only happens where clearing was declared or is implied by a slot or tapback", () => {
    fc.assert(
      fc.property(anyCall, capabilities, (call, caps) => {
        let op: string | undefined;
        try {
          op = normalizeReaction(call, caps).op;
        } catch {
          return;
        }
        if (op === "clear") expect(caps.clearAll !== false || caps.singleSlot || caps.tapbackOnly).toBe(true);
        if (op === "remove") expect(caps.singleSlot && !caps.tapbackOnly).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });
});
