import type { ReactionVocabulary } from "../emoji/vocabulary.js";
import type { ReactionCapabilities } from "../reactions/capabilities.js";
import { type ReactionLevel, reactionGuidance } from "../reactions/level.js";

/** The rules of reacting on a channel, in words the agent reads in the tool description. */
export function describeReactionRules(
  reactions: ReactionCapabilities,
  level: ReactionLevel,
  vocabulary?: ReactionVocabulary,
): string[] {
  const rules: string[] = [];
  const guidance = reactionGuidance(level);
  if (guidance !== undefined) rules.push(guidance);
  const names = vocabulary?.names ?? reactions.vocabulary;
  if (reactions.tapbackOnly && names) {
    rules.push(`emoji must be one of ${names.join(", ")} (or an emoji that means one of them).`);
  } else if (names) {
    rules.push(`Only these reactions are allowed: ${names.join(" ")}.`);
  }
  if (reactions.singleSlot) rules.push("One reaction per message: a new one replaces yours.");
  if (reactions.addOnly) {
    rules.push("Reactions cannot be removed here: think before you react.");
  } else {
    rules.push("remove: true with the emoji removes that reaction of yours.");
    if (reactions.clearAll === true) rules.push('emoji "" or clearAll: true removes all your reactions.');
    if (reactions.clearAll === "explicit")
      rules.push("clearAll: true removes all your reactions (an empty emoji does not).");
  }
  return rules;
}
