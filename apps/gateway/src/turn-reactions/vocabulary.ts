import { BoundedMap } from "@chorus/channel-kit";
import { emojiKey, normalizeShortcode, resolveEmoji, vocabularyOf } from "@chorus/core";
import type { ReactionPlugin } from "./target.js";

/** What the ack falls back to where the configured emoji is not allowed. */
export const ACK_FALLBACKS: readonly string[] = ["👀", "👍", "❤️"];

/**
 * Answers kept per plugin, the last `limit` (the kit's `BoundedMap`): every turn asks the same few
 * questions of its channel's vocabulary, and resolving each form is most of a turn's reaction work.
 */
function keptPerPlugin<V>(limit: number): (plugin: ReactionPlugin, key: string, answer: () => V) => V {
  const kept = new WeakMap<ReactionPlugin, BoundedMap<string, V>>();
  return (plugin, key, answer) => {
    let answers = kept.get(plugin);
    if (!answers) {
      answers = new BoundedMap(limit);
      kept.set(plugin, answers);
    }
    if (answers.has(key)) return answers.peek(key) as V;
    const value = answer();
    answers.set(key, value);
    return value;
  };
}

// The config's emojis make a handful of lists; the agent's reactions are free text, so comparisons are bounded wider.
const keptCandidates = keptPerPlugin<readonly string[]>(64);
const keptComparisons = keptPerPlugin<boolean>(256);

/**
 * Every form of `emoji` and then of `fallbacks` the channel's vocabulary allows, best first and
 * without repeats; on an open vocabulary the same list as given (the platform has the last word).
 * Empty for an empty `emoji`. Kept per plugin (`keptPerPlugin`).
 */
export function candidatesFor(emoji: string, plugin: ReactionPlugin, fallbacks: readonly string[]): readonly string[] {
  return keptCandidates(plugin, `${emoji}\u0000${fallbacks.join("\u0000")}`, () =>
    Object.freeze(listCandidates(emoji, plugin, fallbacks)),
  );
}

function listCandidates(emoji: string, plugin: ReactionPlugin, fallbacks: readonly string[]): string[] {
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
  return keptComparisons(plugin, `${a}\u0000${b}`, () => compareReactions(a, b, plugin));
}

function compareReactions(a: string, b: string, plugin: ReactionPlugin): boolean {
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
