import { describe, expect, it } from "vitest";
import type { ChannelSettings } from "../config/index.js";
import { activates, activationOf, configuredActivation, requireMention } from "./activation.js";

describe("requireMention and the configured activation", () => {
  it("the group's own entry, then the '*' defaults, then mention", () => {
    const settings: ChannelSettings = {
      groups: { loud: { requireMention: false }, quiet: {}, "*": { requireMention: false } },
    };
    expect(requireMention(settings, "loud")).toBe(false);
    expect(requireMention(settings, "quiet")).toBe(false); // its entry says nothing: the defaults decide
    expect(requireMention(settings, "other")).toBe(false);
    expect(requireMention({ groups: { "*": {} } }, "other")).toBe(true);
    expect(requireMention({}, "other")).toBe(true);
    expect(configuredActivation(settings, "loud")).toBe("always");
    expect(configuredActivation({}, "any")).toBe("mention");
  });
});

describe("activationOf", () => {
  it("is the session's /activation when set, else the configured one", () => {
    expect(activationOf({ activation: "always" }, "mention")).toBe("always");
    expect(activationOf({ activation: "mention" }, "always")).toBe("mention");
    expect(activationOf({}, "always")).toBe("always");
  });
});

describe("activates", () => {
  it.each([
    ["mention", true, false, true],
    ["mention", false, false, false],
    ["always", false, false, true],
    ["always", true, true, false],
    ["mention", false, true, false],
  ] as const)("activation %s, mentioned %s, refused command %s → %s", (activation, mentioned, refusedCommand, runs) => {
    expect(activates({ activation, mentioned, refusedCommand })).toBe(runs);
  });
});
