import { ChorusError } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { ConfigError, defaultMentionPatterns } from "../config/index.js";
import { stripInvisible } from "../support/index.js";
import { compileMentionPatterns, detectMention, type MentionInput } from "./mentions.js";

const none = { bot: false, others: [] };
const patterns = compileMentionPatterns(["\\bchorus\\b", "@chorusbot\\b"]);
const BOT = "+15551234567";

function detect(text: string, extra: Partial<MentionInput> = {}) {
  return detectMention({ text, mentions: none, patterns, botE164: BOT, ...extra });
}

describe("stripInvisible", () => {
  it("removes zero-width and bidi characters and keeps everything else", () => {
    const invisible = "\u200B\u200C\u200D\u200E\u200F\u2060\u2061\u2062\u2063\u2064\uFEFF";
    const bidi = "\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069";
    expect(stripInvisible(`a${invisible}b${bidi}c`)).toBe("abc");
    expect(stripInvisible("héllo wörld 👋 \u00A0 tab\t")).toBe("héllo wörld 👋 \u00A0 tab\t");
    expect(stripInvisible("\u2065\u2070")).toBe("\u2065\u2070");
  });
});

describe("compileMentionPatterns", () => {
  it("compiles case-insensitively", () => {
    const [regex] = compileMentionPatterns(["\\bhey bot\\b"]);
    expect(regex?.test("HEY BOT, you there?")).toBe(true);
    expect(regex?.flags).toBe("i");
  });

  it("accepts the default patterns built from agent names, lookbehinds included", () => {
    for (const name of ["Chorus", "Chorus Bot", "@home", "R2-D2", "Ω Assistant"]) {
      const list = defaultMentionPatterns(name);
      expect(() => compileMentionPatterns(list), name).not.toThrow();
    }
    const [regex] = compileMentionPatterns(defaultMentionPatterns("@home"));
    expect(regex?.test("ping @HOME now")).toBe(true);
    expect(regex?.test("ping x@homes")).toBe(false);
  });

  it.each([
    ["(a+)+$", "a quantifier inside a repeated group"],
    ["(x+x+)+y", "a quantifier inside a repeated group"],
    ["(\\w+\\s?)+$", "a quantifier inside a repeated group"],
    ["(a|aa)+", "alternatives overlap"],
    ["(.|\\s)*$", "alternatives overlap"],
  ])("rejects %s with a ConfigError naming the pattern", (pattern, reason) => {
    let caught: unknown;
    try {
      compileMentionPatterns(["\\bok\\b", pattern], { path: "agents.list[0].groupChat.mentionPatterns" });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect(caught).toBeInstanceOf(ChorusError);
    const error = caught as ConfigError;
    expect(error.code).toBe("E_INVALID_INPUT");
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]?.path).toBe("agents.list[0].groupChat.mentionPatterns[1]");
    expect(error.issues[0]?.value).toBe(pattern);
    expect(error.message).toContain(JSON.stringify(pattern));
    expect(error.message).toContain("catastrophic backtracking");
    expect(error.message).toContain(reason);
  });

  it("reports every bad pattern at once, invalid ones too", () => {
    let caught: unknown;
    try {
      compileMentionPatterns(["(unclosed", "fine", "(a|a)*"]);
    } catch (error) {
      caught = error;
    }
    const error = caught as ConfigError;
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.issues.map((issue) => issue.path)).toEqual(["mentionPatterns[0]", "mentionPatterns[2]"]);
    expect(error.issues[0]?.message).toMatch(/^mention pattern "\(unclosed" is not a valid regular expression/);
    expect(error.issues[1]?.message).toContain('mention pattern "(a|a)*" can take exponential time');
  });

  it("compiles a list once: the same array gives the same RegExps", () => {
    const list = ["\\bchorus\\b"];
    const first = compileMentionPatterns(list);
    expect(compileMentionPatterns(list)).toBe(first);
    expect(compileMentionPatterns([...list])).not.toBe(first);
    expect(compileMentionPatterns([...list])[0]?.source).toBe(first[0]?.source);
  });

  it("does not cache a list that failed", () => {
    const list = ["(a+)+"];
    expect(() => compileMentionPatterns(list)).toThrow(ConfigError);
    expect(() => compileMentionPatterns(list)).toThrow(ConfigError);
  });
});

describe("detectMention: platform facts first", () => {
  it("the platform's mention of the bot counts, whatever the text", () => {
    expect(detect("hello", { mentions: { bot: true, others: ["alice"] } })).toEqual({
      mentioned: true,
      by: "platform",
    });
  });

  it("others mentioned and not the bot: patterns and the number are not tried", () => {
    const mentions = { bot: false, others: ["alice@s.whatsapp.net"] };
    expect(detect("@alice ask chorus", { mentions })).toEqual({ mentioned: false, by: null });
    expect(detect("@alice call +15551234567", { mentions })).toEqual({ mentioned: false, by: null });
  });

  it("a reply to the bot counts, even when others are mentioned", () => {
    expect(detect("thanks", { replyTo: { fromBot: true } })).toEqual({ mentioned: true, by: "reply" });
    expect(detect("@alice see this", { replyTo: { fromBot: true }, mentions: { bot: false, others: ["a"] } })).toEqual({
      mentioned: true,
      by: "reply",
    });
    expect(detect("thanks", { replyTo: { fromBot: false } })).toEqual({ mentioned: false, by: null });
  });

  it("the platform fact wins over a reply", () => {
    expect(detect("x", { mentions: { bot: true, others: [] }, replyTo: { fromBot: true } }).by).toBe("platform");
  });
});

describe("detectMention: patterns", () => {
  it("matches case-insensitively anywhere", () => {
    expect(detect("hey CHORUS, what's up")).toEqual({ mentioned: true, by: "pattern" });
    expect(detect("ping @ChorusBot")).toEqual({ mentioned: true, by: "pattern" });
    expect(detect("choruses are nice")).toEqual({ mentioned: false, by: null });
  });

  it("matches a pattern split by a zero-width space or a bidi override", () => {
    expect(detect("hey cho\u200Brus")).toEqual({ mentioned: true, by: "pattern" });
    expect(detect("hey \u202Echo\u202Crus")).toEqual({ mentioned: true, by: "pattern" });
    expect(detect("hey c\u2066h\u2069o\uFEFFrus\u200D!")).toEqual({ mentioned: true, by: "pattern" });
  });

  it("is not fooled by a global regex's lastIndex", () => {
    const global = [/chorus/gi];
    const input = { text: "chorus", mentions: none, patterns: global };
    expect(detectMention(input).mentioned).toBe(true);
    expect(detectMention(input).mentioned).toBe(true);
  });

  it("with no patterns and no number, only platform facts count", () => {
    expect(detectMention({ text: "chorus +15551234567", mentions: none, patterns: [] })).toEqual({
      mentioned: false,
      by: null,
    });
  });
});

describe("detectMention: the bot's E.164", () => {
  it.each([
    "call +15551234567 please",
    "call 15551234567 please",
    "+1 555 123 4567",
    "1-555-123-4567?",
    "+1-555-123-45-67",
    "(+1 555-123-4567)",
    "number:15551234567",
    "+ 1 5 5 5 1 2 3 4 5 6 7",
    "+1\u200B555\u202E1234567",
  ])("finds the number in %j", (text) => {
    expect(detect(text)).toEqual({ mentioned: true, by: "e164" });
  });

  it("accepts the bot's number configured without + or with separators", () => {
    for (const botE164 of ["15551234567", "+1 555-123-4567"]) {
      expect(detect("ring +15551234567", { botE164 })).toEqual({ mentioned: true, by: "e164" });
    }
  });

  it.each([
    "call 215551234567",
    "call +155512345678",
    "call 1555123456",
    "call 15551234567-8",
    "call 9-15551234567",
    "call 1555 1234 5678",
    "call 15551234566",
  ])("does not match a different or longer number: %j", (text) => {
    expect(detect(text)).toEqual({ mentioned: false, by: null });
  });

  it("ignores a bot number without digits", () => {
    expect(detect("call 15551234567", { botE164: "" })).toEqual({ mentioned: false, by: null });
  });

  it("patterns are tried before the number", () => {
    expect(detect("chorus +15551234567").by).toBe("pattern");
  });
});
