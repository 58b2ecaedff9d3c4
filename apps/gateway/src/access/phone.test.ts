import { describe, expect, it } from "vitest";
import { phoneDigits, samePhone } from "./phone.js";

describe("phoneDigits", () => {
  it("reads phone numbers written with +, spaces, dashes, dots and brackets", () => {
    expect(phoneDigits("+49 151 1234-5678")).toBe("4915112345678");
    expect(phoneDigits("  +1 (415) 555.0100 ")).toBe("14155550100");
    expect(phoneDigits("4915112345678")).toBe("4915112345678");
  });

  it("refuses what is not a phone number", () => {
    expect(phoneDigits("u-alice")).toBeUndefined();
    expect(phoneDigits("4915112345678@s.whatsapp.net")).toBeUndefined();
    expect(phoneDigits("+12")).toBeUndefined();
    expect(phoneDigits("+1234567890123456")).toBeUndefined();
    expect(phoneDigits("*")).toBeUndefined();
  });
});

describe("samePhone", () => {
  it("compares the digits of two numbers however they are written", () => {
    expect(samePhone("+1 (415) 555.0100", "14155550100")).toBe(true);
    expect(samePhone("+1 415 555 0100", "+1 415 555 0101")).toBe(false);
  });

  it("is false when either side is not a phone number", () => {
    expect(samePhone("u-alice", "u-alice")).toBe(false);
    expect(samePhone("+12", "+12")).toBe(false);
  });
});
