/** Reactions: WhatsApp's emoji, the one-slot plan, and sending them with the bot reaction record. */
export { fullyQualified, QUICK_REACTIONS, whatsappEmoji } from "./emoji.js";
export { planReaction, type ReactionPlan } from "./plan.js";
export { createReactions, type ReactionDeps } from "./react.js";
