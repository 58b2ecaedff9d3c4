import { emojiKey, normalizeShortcode, ReactionVocabulary, resolveEmoji } from "@chorus/core";
import type { ReactionPlugin } from "./surface.js";

/** What the ack falls back to where the configured emoji is not allowed. */
export const ACK_FALLBACKS: readonly string[] = ["👀", "👍", "❤️"];

const fromNames = new WeakMap<readonly string[], ReactionVocabulary>();

/** The closed reaction vocabulary of a channel, or undefined where any emoji goes. */
export function vocabularyOf(plugin: ReactionPlugin): ReactionVocabulary | undefined {
  if (plugin.vocabulary) return plugin.vocabulary;
  const names = plugin.capabilities.reactions.vocabulary;
  if (!names || names.length === 0) return undefined;
  let vocabulary = fromNames.get(names);
  if (!vocabulary) {
    vocabulary = new ReactionVocabulary(names);
    fromNames.set(names, vocabulary);
  }
  return vocabulary;
}

/**
 * `emoji` in the channel's vocabulary (its platform name where it has a closed set), else the
 * first of `fallbacks` that is allowed; undefined when none is, or `emoji` is empty.
 */
export function mapToChannel(
  emoji: string,
  plugin: ReactionPlugin,
  fallbacks: readonly string[] = ACK_FALLBACKS,
): string | undefined {
  return candidatesFor(emoji, plugin, fallbacks)[0];
}

/**
 * Every form of `emoji` and then of `fallbacks` the channel's vocabulary allows, best first and
 * without repeats; on an open vocabulary the same list as given (the platform has the last word).
 * Empty for an empty `emoji`.
 */
export function candidatesFor(emoji: string, plugin: ReactionPlugin, fallbacks: readonly string[]): string[] {
  // An empty emoji in the config means "none", not "any fallback".
  if (emoji.trim() === "") return [];
  const vocabulary = vocabularyOf(plugin);
  const found: string[] = [];
  for (const candidate of [emoji, ...fallbacks]) {
    if (candidate.trim() === "") continue;
    const form = vocabulary ? vocabulary.lookup(candidate) : candidate.trim();
    if (form !== undefined && !found.some((known) => sameReaction(known, form, plugin))) found.push(form);
  }
  return found;
}

/** True when `a` and `b` are the same reaction on this channel (emoji, shortcode or platform name). */
export function sameReaction(a: string, b: string, plugin: ReactionPlugin): boolean {
  const vocabulary = vocabularyOf(plugin);
  if (vocabulary) {
    const left = vocabulary.lookup(a);
    if (left !== undefined) return left === vocabulary.lookup(b);
  }
  const left = resolveEmoji(a);
  const right = resolveEmoji(b);
  if (left && right) return emojiKey(left.bare) === emojiKey(right.bare);
  return normalizeShortcode(a) === normalizeShortcode(b) || emojiKey(a) === emojiKey(b);
}
