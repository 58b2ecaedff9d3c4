import type { ResolvedEmoji } from "./resolve.js";

/** Similarity of two strings from 0 (nothing alike) to 1 (equal), by edit distance. */
export function textSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const longest = Math.max(a.length, b.length);
  if (longest === 0) return 1;
  return 1 - editDistance(a, b) / longest;
}

/** How alike two emoji are in meaning, from their tags, label words, group and position. */
export function emojiSimilarity(a: ResolvedEmoji, b: ResolvedEmoji): number {
  if (a.hexcode === b.hexcode) return 10;
  const wordsA = meaningWords(a);
  const wordsB = meaningWords(b);
  let shared = 0;
  for (const word of wordsA) if (wordsB.has(word)) shared++;
  const union = wordsA.size + wordsB.size - shared;
  let score = union === 0 ? 0 : (5 * shared) / union;
  // Group and position only break ties: at full weight a neighbouring face sharing just "face"
  // outranked a heart sharing "heart" and "love" (😍 → 😁 🤣 🤔, no ❤).
  if (a.group !== undefined && a.group === b.group) score += 0.5;
  if (a.order !== undefined && b.order !== undefined) score += 0.5 / (1 + Math.abs(a.order - b.order) / 25);
  return score;
}

function meaningWords(emoji: ResolvedEmoji): Set<string> {
  const words = new Set<string>();
  for (const tag of emoji.tags) words.add(tag.toLowerCase());
  for (const word of emoji.label.toLowerCase().split(/[^a-z0-9]+/u)) if (word.length > 2) words.add(word);
  return words;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(substitution, (previous[j] as number) + 1, (current[j - 1] as number) + 1));
    }
    previous = current;
  }
  return previous[b.length] as number;
}
