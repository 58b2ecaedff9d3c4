import { readFileSync } from "node:fs";
import { EMOJI_DATA_FILE } from "./emoji-data.generated.js";

/** One emoji of the emojibase compact data set (English). */
export interface CompactEmoji {
  hexcode: string;
  label: string;
  unicode: string;
  group?: number;
  order?: number;
  tags?: string[];
  emoticon?: string | string[];
  skins?: CompactEmoji[];
}

type ShortcodeMap = Record<string, string | string[]>;

export interface EmojiDataSet {
  emojis: readonly CompactEmoji[];
  /** Shortcode sets keyed by hexcode, most familiar first (GitHub/Slack before emojibase). */
  shortcodes: readonly ShortcodeMap[];
}

/**
 * The emojibase data Chorus resolves emoji with, read and parsed on each call: `resolveEmoji`
 * builds its index from it once, on the first emoji it resolves, and keeps only the index, so
 * neither the file's text nor the parsed data stays in memory (~4 MB of heap and ~0.2 s that a
 * process resolving no emoji, such as a gateway that has not reacted yet, never spends).
 */
export function emojiDataSet(): EmojiDataSet {
  // `../emoji/`, not `./`: the same path from src/emoji/, dist/emoji/ and the bundle in dist/bundle/.
  return JSON.parse(readFileSync(new URL(`../emoji/${EMOJI_DATA_FILE}`, import.meta.url), "utf8")) as EmojiDataSet;
}
