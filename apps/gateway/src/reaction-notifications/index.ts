export { mergeRefs, ReactionNotifier, type ReactionNotifierOptions } from "./notifier.js";
export { type ReactionNotifications, reactionEventText, shouldNotify } from "./notify.js";
export { SystemEvents, type SystemEventsOptions } from "./system-events.js";
