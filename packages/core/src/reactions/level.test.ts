import { describe, expect, it } from "vitest";
import {
  agentMayReact,
  DEFAULT_REACTION_LEVEL,
  REACTION_LEVELS,
  type ReactionLevel,
  reactionGuidance,
  resolveReactionLevel,
  runtimeMayReact,
} from "./level.js";

describe("reaction levels", () => {
  it("default to minimal where a channel sets none, and keep the one it sets", () => {
    expect(DEFAULT_REACTION_LEVEL).toBe("minimal");
    expect(resolveReactionLevel(undefined)).toBe("minimal");
    for (const level of REACTION_LEVELS) expect(resolveReactionLevel(level)).toBe(level);
  });

  it.each<[ReactionLevel, boolean, boolean]>([
    ["off", false, false],
    ["ack", false, true],
    ["minimal", true, true],
    ["extensive", true, true],
  ])("%s: the agent may react %s, the runtime %s", (level, agent, runtime) => {
    expect(agentMayReact(level)).toBe(agent);
    expect(runtimeMayReact(level)).toBe(runtime);
    // Guidance exactly where the agent may react.
    expect(reactionGuidance(level) !== undefined).toBe(agent);
  });

  it("asks for sparing reactions at minimal and free ones at extensive", () => {
    expect(reactionGuidance("minimal")).toMatch(/^React sparingly: /);
    expect(reactionGuidance("extensive")).toMatch(/^React freely /);
  });
});
