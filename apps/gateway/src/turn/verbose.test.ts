import { describe, expect, it } from "vitest";
import { toolCallLine } from "./verbose.js";

describe("toolCallLine", () => {
  it("names the action and its emoji or text, and the outcome", () => {
    expect(toolCallLine({ input: { action: "react", emoji: "👍" }, output: { ok: true } })).toBe(
      "🛠 message react 👍 → ok",
    );
    expect(toolCallLine({ input: { action: "send", text: "hi" }, output: { ok: true } })).toBe(
      "🛠 message send hi → ok",
    );
    expect(
      toolCallLine({
        input: { action: "react", emoji: "🦄" },
        output: { ok: false, error: { code: "E_UNSUPPORTED_EMOJI" } },
      }),
    ).toBe("🛠 message react 🦄 → failed (E_UNSUPPORTED_EMOJI)");
    expect(toolCallLine({ input: { action: "reactions" }, output: { ok: false } })).toBe(
      "🛠 message reactions → failed (error)",
    );
  });
});
