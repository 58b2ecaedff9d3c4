/**
 * `channels.<id>.reactionLevel` (DESIGN §7): how much the agent and the runtime react.
 * Everything a level means is decided here: its default, who may react at it, and the guidance
 * the agent reads (in the tool description and, through the gateway, in the system prompt).
 */

/** `off`: no reactions at all; `ack`: only the runtime's ack; `minimal`: the agent reacts sparingly; `extensive`: freely. */
export type ReactionLevel = "off" | "ack" | "minimal" | "extensive";

export const REACTION_LEVELS: readonly ReactionLevel[] = ["off", "ack", "minimal", "extensive"];

/** The level of a channel that sets none (DESIGN §7: the default for every channel). */
export const DEFAULT_REACTION_LEVEL: ReactionLevel = "minimal";

/** The level a channel runs at: the one it sets, else `DEFAULT_REACTION_LEVEL`. */
export function resolveReactionLevel(level: ReactionLevel | undefined): ReactionLevel {
  return level ?? DEFAULT_REACTION_LEVEL;
}

/** True when the agent itself may call `react` at this level. */
export function agentMayReact(level: ReactionLevel): boolean {
  return level === "minimal" || level === "extensive";
}

/** True when the runtime may place its own reactions (ack, status) at this level: every level but `off`. */
export function runtimeMayReact(level: ReactionLevel): boolean {
  return level !== "off";
}

/** How the agent should react at this level, in one sentence; `undefined` where it may not react. */
export function reactionGuidance(level: ReactionLevel): string | undefined {
  switch (level) {
    case "minimal":
      return "React sparingly: only when a reaction says more than words (an acknowledgement, a thank-you), at most one per message, and never instead of a reply that is needed.";
    case "extensive":
      return "React freely where it fits the conversation: to acknowledge, agree, celebrate or show how you feel, in addition to replying when a reply is needed.";
    case "off":
    case "ack":
      return undefined;
  }
}
