import { emojiKey, normalizeShortcode, resolveEmoji, vocabularyOf } from "@chorus/core";
import type { ReactionPlugin } from "./target.js";

/** What the ack falls back to where the configured emoji is not allowed. */
export const ACK_FALLBACKS: readonly string[] = ["👀", "👍", "❤️"];

/** How many lists `candidatesFor` keeps per plugin: the config's emojis make a handful; a bound all the same. */
const KEPT_PER_PLUGIN = 64;
const computed = new WeakMap<ReactionPlugin, Map<string, readonly string[]>>();

/**
 * Every form of `emoji` and then of `fallbacks` the channel's vocabulary allows, best first and
 * without repeats; on an open vocabulary the same list as given (the platform has the last word).
 * Empty for an empty `emoji`. Kept per plugin: every turn asks for the same few (resolving each
 * form is most of a turn's reaction work).
 */
export function candidatesFor(emoji: string, plugin: ReactionPlugin, fallbacks: readonly string[]): readonly string[] {
  let kept = computed.get(plugin);
  if (!kept) {
    kept = new Map();
    computed.set(plugin, kept);
  }
  const key = `${emoji}\u0000${fallbacks.join("\u0000")}`;
  let found = kept.get(key);
  if (!found) {
    found = Object.freeze(listCandidates(emoji, plugin, fallbacks));
    if (kept.size >= KEPT_PER_PLUGIN) kept.clear();
    kept.set(key, found);
  }
  return found;
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

/** How many answers `sameReaction` keeps per plugin (the agent's reactions are free text: bounded). */
const ANSWERS_PER_PLUGIN = 256;
const answered = new WeakMap<ReactionPlugin, Map<string, boolean>>();

/** True when `a` and `b` are the same reaction on this channel (emoji, shortcode or platform name). */
export function sameReaction(a: string, b: string, plugin: ReactionPlugin): boolean {
  let kept = answered.get(plugin);
  if (!kept) {
    kept = new Map();
    answered.set(plugin, kept);
  }
  const key = `${a}\u0000${b}`;
  let same = kept.get(key);
  if (same === undefined) {
    same = compareReactions(a, b, plugin);
    if (kept.size >= ANSWERS_PER_PLUGIN) kept.clear();
    kept.set(key, same);
  }
  return same;
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
