import { normalizeReaction, type ReactionIntent, UnsupportedEmojiError } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { whatsappCapabilities } from "../index.js";
import { fullyQualified, planReaction, whatsappEmoji } from "./index.js";

/** The intent core makes of a react call on WhatsApp (DESIGN §2.2 rules 1–8). */
const intent = (call: Record<string, unknown>): ReactionIntent =>
  normalizeReaction(call, whatsappCapabilities.reactions, undefined, { channel: "WhatsApp" });

describe("whatsappEmoji", () => {
  it("standard emoji and shortcodes become the fully qualified emoji phones send", () => {
    expect(whatsappEmoji(intent({ emoji: "👍" }))).toBe("👍");
    expect(whatsappEmoji(intent({ emoji: "thumbsup" }))).toBe("👍");
    expect(whatsappEmoji(intent({ emoji: ":+1:" }))).toBe("👍");
    expect(whatsappEmoji(intent({ emoji: "❤" }))).toBe("❤️");
    expect(whatsappEmoji(intent({ emoji: "👍🏽" }))).toBe("👍🏽");
    expect(whatsappEmoji(intent({ emoji: "🇩🇪" }))).toBe("🇩🇪");
    expect(whatsappEmoji(intent({ emoji: "🦜" }))).toBe("🦜");
    expect(whatsappEmoji(intent({ emoji: "heart" }))).toBe("❤️");
  });

  it("spells emoji fully qualified, as phones do", () => {
    expect(fullyQualified("❤")).toBe("❤\uFE0F");
    expect(fullyQualified("❤\uFE0F")).toBe("❤\uFE0F");
    expect(fullyQualified("👍\uFE0F")).toBe("👍");
    expect(fullyQualified("#\u20E3")).toBe("#\uFE0F\u20E3");
    expect(fullyQualified("☝🏽")).toBe("☝🏽");
    expect(fullyQualified("🏳\u200D🌈")).toBe("🏳\uFE0F\u200D🌈");
    expect(fullyQualified("❤\u200D🔥")).toBe("❤\uFE0F\u200D🔥");
  });

  it("anything that is not one emoji is E_UNSUPPORTED_EMOJI naming quick reactions", () => {
    for (const emoji of ["hello", "👍👍", "party_parrot:123", "<:x:1>"]) {
      let thrown: unknown;
      try {
        whatsappEmoji(intent({ emoji }));
      } catch (error) {
        thrown = error;
      }
      expect(thrown, emoji).toBeInstanceOf(UnsupportedEmojiError);
      expect((thrown as UnsupportedEmojiError).alternatives.length).toBeGreaterThan(0);
      expect((thrown as UnsupportedEmojiError).message).toMatch(/on WhatsApp/);
    }
  });
});

describe("planReaction (DESIGN §2.2 row WhatsApp: one slot, clearAll)", () => {
  it("add to an empty slot sends the emoji", () => {
    expect(planReaction(undefined, intent({ emoji: "thumbsup" }))).toEqual({
      send: "👍",
      hold: "👍",
      result: { ok: true, action: "react", op: "add", emoji: "👍" },
    });
  });

  it("a new emoji replaces the held one", () => {
    expect(planReaction("👍", intent({ emoji: "❤" }))).toEqual({
      send: "❤️",
      hold: "❤️",
      result: { ok: true, action: "react", op: "add", emoji: "❤️", removed: ["👍"] },
    });
  });

  it("adding what is held (in any spelling, with or without U+FE0F) sends nothing", () => {
    expect(planReaction("❤️", intent({ emoji: "❤" })).send).toBeUndefined();
    expect(planReaction("❤", intent({ emoji: ":heart:" }))).toEqual({
      hold: "❤",
      result: { ok: true, action: "react", op: "add", emoji: "❤" },
    });
  });

  it('emoji "", clearAll and remove: true all empty the slot with an empty reaction', () => {
    for (const call of [
      { emoji: "" },
      { clearAll: true },
      { emoji: "👍", remove: true },
      { emoji: "🔥", remove: true },
    ]) {
      expect(planReaction("👍", intent(call)), JSON.stringify(call)).toEqual({
        send: "",
        hold: undefined,
        result: { ok: true, action: "react", op: "clear", removed: ["👍"] },
      });
    }
  });

  it("clearing an empty slot sends nothing", () => {
    expect(planReaction(undefined, intent({ emoji: "" }))).toEqual({
      hold: undefined,
      result: { ok: true, action: "react", op: "clear", removed: [] },
    });
  });

  it("an explicit remove (never made by core here) only takes that emoji away", () => {
    expect(planReaction("👍", { op: "remove", emoji: "🔥" }).send).toBeUndefined();
    expect(planReaction("👍", { op: "remove", emoji: "👍" })).toMatchObject({ send: "", hold: undefined });
  });
});
