export { AckReactions, type AckReactionsOptions, type AckScope, ackApplies, type TurnOutcome } from "./ack.js";
export { type ReactionNotifications, reactionEventText, shouldNotify } from "./notify.js";
export {
  STATUS_FALLBACKS,
  type StatusDisplay,
  StatusReactions,
  type StatusReactionsOptions,
  type StatusState,
} from "./status.js";
export {
  type AgentReaction,
  type Clock,
  type ReactionInstance,
  type ReactionLogger,
  type ReactionPlugin,
  type ReactionTarget,
  systemClock,
} from "./surface.js";
export { SystemEvents, type SystemEventsOptions } from "./system-events.js";
export { TurnReactions, type TurnReactionsOptions } from "./turn.js";
export { ACK_FALLBACKS, candidatesFor, mapToChannel, sameReaction, vocabularyOf } from "./vocabulary.js";
