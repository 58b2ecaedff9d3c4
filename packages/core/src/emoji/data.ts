import { createRequire } from "node:module";

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

const require = createRequire(import.meta.url);
let cached: EmojiDataSet | undefined;

/** The emojibase data Chorus resolves emoji with, loaded once on first use. */
export function emojiDataSet(): EmojiDataSet {
  cached ??= {
    emojis: require("emojibase-data/en/compact.json") as CompactEmoji[],
    shortcodes: [
      require("emojibase-data/en/shortcodes/github.json") as ShortcodeMap,
      require("emojibase-data/en/shortcodes/iamcal.json") as ShortcodeMap,
      require("emojibase-data/en/shortcodes/emojibase.json") as ShortcodeMap,
      require("emojibase-data/en/shortcodes/cldr.json") as ShortcodeMap,
    ],
  };
  return cached;
}
