// The runtime's own reactions on the message being answered (DESIGN §7): the ack, status reactions, `trackToolCalls`.
export { AckReactions, type AckReactionsOptions, type AckScope, ackApplies, type TurnOutcome } from "./ack.js";
export { addFirstAccepted, tryReaction } from "./attempt.js";
export { type Clock, systemClock } from "./clock.js";
export {
  STATUS_FALLBACKS,
  type StatusDisplay,
  StatusReactions,
  type StatusReactionsOptions,
  type StatusState,
} from "./status.js";
export type { AgentReaction, ReactionInstance, ReactionLogger, ReactionPlugin, ReactionTarget } from "./target.js";
export { TurnReactions, type TurnReactionsOptions } from "./turn.js";
export { ACK_FALLBACKS, candidatesFor, sameReaction } from "./vocabulary.js";
