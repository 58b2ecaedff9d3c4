import { describe, expect, it } from "vitest";
import { typingModeFor } from "./typing.js";

describe("typingModeFor", () => {
  it("is message for a group turn without a mention, instant otherwise, when typingMode is unset", () => {
    expect(typingModeFor(undefined, "group", false)).toBe("message");
    expect(typingModeFor(undefined, "group", true)).toBe("instant");
    expect(typingModeFor(undefined, "direct", true)).toBe("instant");
    expect(typingModeFor(undefined, "direct", false)).toBe("instant");
  });

  it("is agents.defaults.typingMode whenever it is set", () => {
    for (const mode of ["never", "instant", "thinking", "message"] as const) {
      expect(typingModeFor(mode, "group", false)).toBe(mode);
      expect(typingModeFor(mode, "direct", true)).toBe(mode);
    }
  });
});
