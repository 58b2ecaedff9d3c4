import { describe, expect, it } from "vitest";
import { backtrackingRisk } from "./regex-safety.js";

describe("backtrackingRisk", () => {
  it.each([
    "(a+)+$",
    "(a*)*",
    "(a{2,})+",
    "(x+x+)+y",
    "(\\w+\\s?)+$",
    "^(([a-z])+.)+[A-Z]([a-z])+$",
    "((?<=a)b+)+",
    "(?<=(a+)+)b",
    "(?:a+){10}",
  ])("finds a quantifier inside a repeated group in %s", (pattern) => {
    expect(backtrackingRisk(pattern)).toMatch(/quantifier inside a repeated group|too many or nested quantifiers/);
  });

  it.each([
    "(a|aa)+",
    "(a|a)*",
    "(.|\\s)*$",
    "(\\d|\\w)+",
    "(ab|a|b)*c",
    "([a-c]|[c-e])+",
    "([A-C]|[c-e])+", // case-insensitive: C and c are the same letter
    "(\\u0041|a)+",
    "(?:[^x]|y)+",
    "(a?)+",
    "(a{1,3})+",
    "(?:\\x41|\\cJ|[\\n\\t]|\\n)+",
  ])("finds overlapping alternatives in a repeated group in %s", (pattern) => {
    expect(backtrackingRisk(pattern)).toMatch(/alternatives overlap/);
  });

  it.each([
    "\\bchorus\\b",
    "(?<!\\w)@home(?!\\w)",
    "@chorusbot\\b",
    "chorus\\s+bot",
    "(?:hey |hi )?chorus",
    "\\b(chorus|bot)\\b",
    "(foo|far)+",
    "(xa|xaa)+",
    "(a|b|c)+",
    "(a|b){1,3}",
    "[\\w-]+@x",
    "[\\]\\-a]+",
    "(?<name>x)\\k<name>+",
    "x{2}y*",
    "a{,3}",
    "\\d+-\\d+",
  ])("accepts %s", (pattern) => {
    expect(backtrackingRisk(pattern)).toBeUndefined();
  });

  it("rejects more than 25 quantifiers (safe-regex2's repetition limit)", () => {
    expect(backtrackingRisk("a?".repeat(26))).toBe("too many or nested quantifiers");
    expect(backtrackingRisk("a?".repeat(25))).toBeUndefined();
  });
});
