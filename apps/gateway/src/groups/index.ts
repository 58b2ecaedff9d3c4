// Group rules (DESIGN §4): activation, mention detection, pending history as context, echo suppression, the intro prompt.
export { activates, activationOf, configuredActivation } from "./activation.js";
export { GroupContextStore } from "./context-store.js";
export {
  CONTEXT_MARKER,
  CONTINUATION,
  CURRENT_MARKER,
  formatBatch,
  fromLine,
  pendingOf,
  resolveHistoryLimit,
} from "./history.js";
export { INTRODUCE_AGAIN, INTRODUCED, introFor } from "./intro.js";
export { compileMentionPatterns, detectMention } from "./mentions.js";
