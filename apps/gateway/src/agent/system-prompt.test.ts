import { reactionGuidance } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { buildSystemPrompt, reactionSection } from "./system-prompt.js";

const now = new Date("2026-03-02T14:05:09Z");
const base = { agentName: "Chorus", channelLabel: "Telegram", chatType: "direct" as const, now };

describe("buildSystemPrompt", () => {
  it("gives a default prompt naming the agent, the channel and plain-text replies", () => {
    const prompt = buildSystemPrompt({ ...base, reactionLevel: "off" });
    expect(prompt).toContain("You are Chorus,");
    expect(prompt).toContain("You are talking on Telegram, in a direct (one-to-one) chat.");
    expect(prompt).toContain("plain text");
    expect(prompt).toContain("The current time is 2026-03-02 14:05 UTC.");
  });

  it("starts with the agent's own prompt instead of the default", () => {
    const prompt = buildSystemPrompt({ ...base, basePrompt: "You are Ada, a terse pirate.", reactionLevel: "off" });
    expect(prompt.startsWith("You are Ada, a terse pirate.\n\n")).toBe(true);
    expect(prompt).not.toContain("You are Chorus");
    expect(prompt).toContain("on Telegram");
  });

  it("falls back to the default when the agent's prompt is blank", () => {
    expect(buildSystemPrompt({ ...base, basePrompt: "  ", reactionLevel: "off" })).toContain("You are Chorus,");
  });

  it("names group chats", () => {
    const prompt = buildSystemPrompt({ ...base, channelLabel: "WhatsApp", chatType: "group", reactionLevel: "off" });
    expect(prompt).toContain("You are talking on WhatsApp, in a group chat.");
  });

  it("asks to react sparingly at minimal", () => {
    const prompt = buildSystemPrompt({ ...base, reactionLevel: "minimal" });
    expect(prompt).toContain("React sparingly");
    expect(prompt).not.toContain("React freely");
  });

  it("invites free reactions at extensive", () => {
    const prompt = buildSystemPrompt({ ...base, reactionLevel: "extensive" });
    expect(prompt).toContain("React freely");
    expect(prompt).not.toContain("React sparingly");
  });

  it.each(["off", "ack"] as const)("says nothing about reactions at %s", (reactionLevel) => {
    expect(reactionSection(reactionLevel)).toBeUndefined();
    expect(buildSystemPrompt({ ...base, reactionLevel })).not.toMatch(/react/i);
  });

  it.each(["minimal", "extensive"] as const)("at %s, says core's guidance word for word (one source)", (level) => {
    expect(buildSystemPrompt({ ...base, reactionLevel: level })).toContain(reactionGuidance(level) as string);
  });

  it("is stable for the same input", () => {
    const input = { ...base, reactionLevel: "minimal" as const };
    expect(buildSystemPrompt(input)).toBe(buildSystemPrompt(input));
  });
});
