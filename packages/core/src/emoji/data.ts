import { parseEmojiData } from "./emoji-data.generated.js";

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

let cached: EmojiDataSet | undefined;

/** The emojibase data Chorus resolves emoji with, parsed once on first use. */
export function emojiDataSet(): EmojiDataSet {
  cached ??= parseEmojiData();
  return cached;
}
