import { resolveEmoji } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { emojiOfName, slackName, slackNameOf } from "./emoji.js";

describe("Slack emoji names", () => {
  it.each([
    ["👍", "thumbsup"],
    ["👍️", "thumbsup"],
    ["+1", "thumbsup"],
    [":thumbsup:", "thumbsup"],
    ["👎", "thumbsdown"],
    ["❤️", "heart"],
    ["🎉", "tada"],
    ["💯", "100"],
    ["✅", "white_check_mark"],
    ["👍🏻", "thumbsup::skin-tone-2"],
    ["👋🏿", "wave::skin-tone-6"],
    [":+1::skin-tone-3:", "thumbsup::skin-tone-3"],
    ["partyparrot", "partyparrot"],
    [":shipit:", "shipit"],
  ])("%s → %s", (input, name) => {
    expect(slackName(input)).toBe(name);
  });

  it("refuses what cannot be a Slack name, with standard names close to it", () => {
    expect(() => slackName("not an emoji")).toThrow(/is not a reaction on Slack/);
    const error = (() => {
      try {
        slackName("🫨x");
      } catch (e) {
        return e as { code: string; alternatives: string[] };
      }
    })();
    expect(error?.code).toBe("E_UNSUPPORTED_EMOJI");
    expect(error?.alternatives.length).toBe(3);
  });

  it("shows inbound reactions as emoji where Slack's name has one", () => {
    expect(emojiOfName("thumbsup")).toBe("👍️");
    expect(emojiOfName("+1::skin-tone-2")).toBe("👍🏻");
    expect(emojiOfName("partyparrot")).toBe("partyparrot");
    expect(slackNameOf(resolveEmoji("🦜") as NonNullable<ReturnType<typeof resolveEmoji>>)).toBe("parrot");
  });
});
