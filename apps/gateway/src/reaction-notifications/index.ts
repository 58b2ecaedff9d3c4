// Reactions people make (DESIGN §7): which ones become notes for their session's next turn, and where those notes wait.
export { mergeRefs, ReactionNotifier, type ReactionNotifierOptions } from "./notifier.js";
export { type ReactionNotifications, reactionEventText, shouldNotify } from "./notify.js";
export { SystemEvents, type SystemEventsOptions } from "./system-events.js";
