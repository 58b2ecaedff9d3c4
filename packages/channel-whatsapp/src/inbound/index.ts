/**
 * Inbound: what Baileys delivers, normalised into Chorus events (`message.ts`, `reaction.ts`),
 * with what fills them in, looked up first (`delivery.ts`: group metadata, people, mentions) and
 * kept current (`learn.ts`). `../receive.ts` hands these to the kit's receiver and `ctx.emit`.
 */
export { contextInfoOf, resolveMentionPlaceholders, textOf, unwrapContent } from "./content.js";
export {
  type LookupDeps,
  messageDelivery,
  reactionDelivery,
  type WhatsAppDelivery,
} from "./delivery.js";
export { type GroupMetadataCache, groupMetadataCache } from "./group-metadata.js";
export { learnFromSocket } from "./learn.js";
export { mentionFacts } from "./mentions.js";
export { type InboundContext, type NormalizedMessage, normalizeMessage } from "./message.js";
export { People } from "./people.js";
export {
  type NormalizedReaction,
  normalizeReactionUpdate,
  ReactionMemory,
  type ReactionUpdate,
} from "./reaction.js";
