import { describe, expect, it } from "vitest";
import { echoDigest, isEcho } from "./echo.js";

const batch = "Carol: hello\n[from: Carol (+15551234567)]";

describe("echo suppression", () => {
  it("the same batch again without a mention is a repeat", () => {
    expect(isEcho(echoDigest(batch), echoDigest(batch), false)).toBe(true);
  });

  it("with a mention it is never a repeat", () => {
    expect(isEcho(echoDigest(batch), echoDigest(batch), true)).toBe(false);
  });

  it("different text is not a repeat, nor is a first batch", () => {
    expect(isEcho(echoDigest(batch), echoDigest(`${batch} `), false)).toBe(false);
    expect(isEcho(undefined, echoDigest(batch), false)).toBe(false);
  });

  it("keeps a short digest, not the text", () => {
    expect(echoDigest("x".repeat(100_000))).toHaveLength(44);
    expect(echoDigest(batch)).not.toContain("Carol");
  });
});
