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

/** A closed set of reactions a channel can express, with lookup and closest-match hints. */
export class ReactionVocabulary {
  readonly names: readonly string[];
  readonly #entries: readonly IndexedEntry[];
  readonly #byText = new Map<string, string>();
  readonly #byEmoji = new Map<string, string>();

  constructor(entries: readonly (string | VocabularyEntry)[]) {
    const indexed: IndexedEntry[] = [];
    for (const raw of entries) {
      const entry = typeof raw === "string" ? { name: raw } : raw;
      const forms = [entry.name, ...(entry.matches ?? [])];
      const item: IndexedEntry = { name: entry.name, matches: entry.matches ?? [], texts: [], emoji: undefined };
      for (const form of forms) {
        const text = normalizeShortcode(form);
        item.texts.push(text);
        if (!this.#byText.has(text)) this.#byText.set(text, entry.name);
        const emoji = resolveEmoji(form);
        if (!emoji) continue;
        item.emoji ??= emoji;
        const key = emojiKey(emoji.bare);
        if (!this.#byEmoji.has(key)) this.#byEmoji.set(key, entry.name);
      }
      indexed.push(item);
    }
    this.#entries = indexed;
    this.names = Object.freeze(indexed.map((e) => e.name));
  }

  /** The entry `input` means (case-, colon- and selector-insensitive), or undefined. */
  lookup(input: string): string | undefined {
    const byText = this.#byText.get(normalizeShortcode(input));
    if (byText !== undefined) return byText;
    const emoji = resolveEmoji(input);
    if (!emoji) return undefined;
    return (
      this.#byEmoji.get(emojiKey(emoji.bare)) ?? (emoji.base ? this.#byEmoji.get(emojiKey(emoji.base.bare)) : undefined)
    );
  }

  has(name: string): boolean {
    return this.names.includes(name);
  }

  /** The `limit` entries closest to `input` in meaning or spelling, best first. */
  closest(input: string, limit = 3): string[] {
    const emoji = resolveEmoji(input);
    const text = normalizeShortcode(input);
    const scored = this.#entries.map((entry, position) => {
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
    return new ReactionVocabulary(
      this.#entries.filter((e) => allowed.has(e.name)).map((e) => ({ name: e.name, matches: e.matches })),
    );
  }
}

/** Builds a closed reaction vocabulary from platform names and what maps onto them. */
export function defineVocabulary(entries: readonly (string | VocabularyEntry)[]): ReactionVocabulary {
  return new ReactionVocabulary(entries);
}
