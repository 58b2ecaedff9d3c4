import { emojiKey, normalizeShortcode, type ResolvedEmoji, resolveEmoji } from "./resolve.js";
import { emojiSimilarity, textSimilarity } from "./similarity.js";

/** One member of a closed reaction set: its platform name and what maps onto it. */
export interface VocabularyEntry {
  /** The platform's own form: `love` (tapback), `THUMBSUP` (Feishu), `👍` (Telegram). */
  readonly name: string;
  /** Emoji, shortcodes and words that mean this entry (`❤️`, `heart`). The name always matches. */
  readonly matches?: readonly string[];
}

interface IndexedEntry {
  name: string;
  /** The matches as given (restrict rebuilds from these: `texts` are lower-cased, `:D` ≠ `:d`). */
  matches: readonly string[];
  texts: string[];
  emoji: ResolvedEmoji | undefined;
}

interface VocabularyIndex {
  entries: readonly IndexedEntry[];
  byText: Map<string, string>;
  byEmoji: Map<string, string>;
}

/**
 * A closed set of reactions a channel can express, with lookup and closest-match hints. Its emoji
 * are resolved on the first lookup, not when it is defined: a channel defines its vocabulary when
 * its module loads, and resolving the first emoji builds the emoji index (~0.2 s, a few MB) that a
 * gateway should pay only when a reaction is first looked up.
 */
export class ReactionVocabulary {
  readonly names: readonly string[];
  readonly #given: readonly VocabularyEntry[];
  #index: VocabularyIndex | undefined;

  constructor(entries: readonly (string | VocabularyEntry)[]) {
    this.#given = entries.map((raw) => (typeof raw === "string" ? { name: raw } : raw));
    this.names = Object.freeze(this.#given.map((e) => e.name));
  }

  #indexed(): VocabularyIndex {
    if (this.#index) return this.#index;
    const index: VocabularyIndex = { entries: [], byText: new Map(), byEmoji: new Map() };
    const entries: IndexedEntry[] = [];
    for (const entry of this.#given) {
      const forms = [entry.name, ...(entry.matches ?? [])];
      const item: IndexedEntry = { name: entry.name, matches: entry.matches ?? [], texts: [], emoji: undefined };
      for (const form of forms) {
        const text = normalizeShortcode(form);
        item.texts.push(text);
        if (!index.byText.has(text)) index.byText.set(text, entry.name);
        const emoji = resolveEmoji(form);
        if (!emoji) continue;
        item.emoji ??= emoji;
        const key = emojiKey(emoji.bare);
        if (!index.byEmoji.has(key)) index.byEmoji.set(key, entry.name);
      }
      entries.push(item);
    }
    index.entries = entries;
    this.#index = index;
    return index;
  }

  /** The entry `input` means (case-, colon- and selector-insensitive), or undefined. */
  lookup(input: string): string | undefined {
    const { byText, byEmoji } = this.#indexed();
    const named = byText.get(normalizeShortcode(input));
    if (named !== undefined) return named;
    const emoji = resolveEmoji(input);
    if (!emoji) return undefined;
    return byEmoji.get(emojiKey(emoji.bare)) ?? (emoji.base ? byEmoji.get(emojiKey(emoji.base.bare)) : undefined);
  }

  has(name: string): boolean {
    return this.names.includes(name);
  }

  /** The `limit` entries closest to `input` in meaning or spelling, best first. */
  closest(input: string, limit = 3): string[] {
    const emoji = resolveEmoji(input);
    const text = normalizeShortcode(input);
    const scored = this.#indexed().entries.map((entry, position) => {
      let score = 0;
      if (emoji && entry.emoji) score += emojiSimilarity(emoji, entry.emoji);
      if (emoji && entry.texts.some((t) => emoji.tags.includes(t))) score += 3;
      const spellings = [...entry.texts, ...(entry.emoji?.shortcodes ?? [])];
      const similarities = spellings.map((s) => textSimilarity(text, s.toLowerCase()));
      const typedUnicode = (text.codePointAt(0) ?? 0) > 0x7f;
      const textScore = emoji && typedUnicode ? 0 : Math.max(0, ...similarities);
      score += 4 * textScore;
      return { name: entry.name, score, position };
    });
    scored.sort((a, b) => b.score - a.score || a.position - b.position);
    return scored.slice(0, limit).map((s) => s.name);
  }

  /** The same vocabulary narrowed to `names` (a chat's allowed reactions, say). */
  restrict(names: Iterable<string>): ReactionVocabulary {
    const allowed = new Set(names);
    return new ReactionVocabulary(this.#given.filter((e) => allowed.has(e.name)));
  }
}

/** Builds a closed reaction vocabulary from platform names and what maps onto them. */
export function defineVocabulary(entries: readonly (string | VocabularyEntry)[]): ReactionVocabulary {
  return new ReactionVocabulary(entries);
}
