/**
 * Inbound: what Baileys delivers (`listeners.ts`) normalized into Chorus events (`message.ts`,
 * `reaction.ts`), with the people, mentions and group metadata that fill them in.
 */
export { contextInfoOf, resolveMentionPlaceholders, textOf, unwrapContent } from "./content.js";
export { type GroupMetadataCache, groupMetadataCache } from "./group-metadata.js";
export { attachListeners, type ListenerDeps } from "./listeners.js";
export { mentionFacts } from "./mentions.js";
export { type InboundContext, type NormalizedMessage, normalizeMessage } from "./message.js";
export { People } from "./people.js";
export {
  type NormalizedReaction,
  normalizeReactionUpdate,
  ReactionMemory,
  type ReactionUpdate,
} from "./reaction.js";
