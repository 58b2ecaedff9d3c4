import { describe, expect, it } from "vitest";
import { hmacSha256Hex, safeEqual } from "./signatures.js";

describe("signatures", () => {
  it("computes HMAC-SHA256 (RFC 4231 test case 2)", () => {
    expect(hmacSha256Hex("Jefe", "what do ya want for nothing?")).toBe(
      "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
    );
  });

  it("compares equal and different secrets, also of different lengths", () => {
    expect(safeEqual("secret-value", "secret-value")).toBe(true);
    expect(safeEqual("secret-value", "secret-valuf")).toBe(false);
    expect(safeEqual("short", "a much longer value")).toBe(false);
    expect(safeEqual(Buffer.from("abc"), "abc")).toBe(true);
  });
});
