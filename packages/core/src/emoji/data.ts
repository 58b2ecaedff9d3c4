import { emojiDataJson } from "./emoji-data.generated.js";

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
 * The emojibase data Chorus resolves emoji with, parsed on each call: `resolveEmoji` builds its
 * index from it once, on the first emoji it resolves, and keeps only the index, so the parsed data
 * never stays in memory and a process resolving no emoji (a gateway that has not reacted yet) never
 * parses it (~4 MB of heap, ~15 ms). The text is a module of core's, not a file it reads.
 */
export function emojiDataSet(): EmojiDataSet {
  return JSON.parse(emojiDataJson()) as EmojiDataSet;
}
