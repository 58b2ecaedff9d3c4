/**
 * What a channel can do with reactions, declared by its plugin as runtime data (DESIGN §2.1).
 * Core's semantics, the tool schema and the contract suite all read these flags.
 */
export interface ReactionCapabilities {
  /** Empty emoji clears all the bot's reactions; `"explicit"`: only `clearAll: true` does. */
  readonly clearAll: boolean | "explicit";
  /** The bot holds one reaction per message; a new one replaces it. */
  readonly singleSlot: boolean;
  /** Reactions are a closed set of kinds; an emoji must map onto one. */
  readonly tapbackOnly: boolean;
  /** Reactions cannot be removed. */
  readonly addOnly: boolean;
  /** Reactions on a message can be listed. */
  readonly list: boolean;
  /** The closed set, where the platform has one (platform names, in the order hints list them). */
  readonly vocabulary?: readonly string[];
}

/** Reaction capabilities of a channel that cannot react at all. */
export const NO_REACTIONS: ReactionCapabilities = Object.freeze({
  clearAll: false,
  singleSlot: false,
  tapbackOnly: false,
  addOnly: true,
  list: false,
});
