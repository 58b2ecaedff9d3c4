import { type CompactEmoji, emojiDataSet } from "./data.js";

/** An emoji identified in the emoji data set, with every name it is known by. */
export interface ResolvedEmoji {
  /** Fully-qualified unicode as the data set writes it (with U+FE0F where it belongs). */
  readonly unicode: string;
  /** The same emoji without variation selectors: the form to compare and store. */
  readonly bare: string;
  /** Emojibase hexcode, e.g. `1F44D-1F3FD`. */
  readonly hexcode: string;
  readonly label: string;
  /** Known shortcodes without colons, most familiar first (`+1`, `thumbsup`, …). */
  readonly shortcodes: readonly string[];
  readonly tags: readonly string[];
  /** 1 (light) to 5 (dark) when a skin tone modifier is present. */
  readonly skinTone?: number;
  /** The emoji without skin tone, when this one has one. */
  readonly base?: ResolvedEmoji;
  readonly group?: number;
  readonly order?: number;
}

interface EmojiIndex {
  byKey: Map<string, ResolvedEmoji>;
  byName: Map<string, ResolvedEmoji>;
  byEmoticon: Map<string, ResolvedEmoji>;
}

const VARIATION_SELECTORS = /[\uFE0E\uFE0F]/gu;
const SKIN_TONES = [0x1f3fb, 0x1f3fc, 0x1f3fd, 0x1f3fe, 0x1f3ff];
/** Combining enclosing keycap: keycap emoji (`#️⃣`, `1️⃣`) start with an ASCII character. */
const KEYCAP = "\u20E3";
let index: EmojiIndex | undefined;

/** Removes U+FE0E/U+FE0F so `❤️` and `❤` compare equal. */
export function stripVariationSelectors(text: string): string {
  return text.replace(VARIATION_SELECTORS, "");
}

/** The comparison key of an emoji string: its code points in hex, without variation selectors. */
export function emojiKey(text: string): string {
  const parts: string[] = [];
  for (const char of text) {
    const cp = char.codePointAt(0) as number;
    if (cp === 0xfe0f || cp === 0xfe0e) continue;
    parts.push(cp.toString(16).toUpperCase());
  }
  return parts.join("-");
}

/**
 * Finds an emoji from unicode (with or without U+FE0F, with skin tones), a shortcode with or
 * without colons (`thumbsup`, `:+1:`, `thumbsup_tone3`), or an emoticon (`<3`). A platform's own
 * skin-tone syntax (Slack's `wave::skin-tone-3`) is read by that platform's package, with `withSkinTone`.
 */
export function resolveEmoji(input: string): ResolvedEmoji | undefined {
  const text = input.trim();
  if (text === "") return undefined;
  const idx = emojiIndex();
  const first = text.codePointAt(0) as number;
  if (first > 0x7f || text.includes(KEYCAP)) {
    const found = idx.byKey.get(emojiKey(text));
    if (found) return found;
    return idx.byKey.get(emojiKey(withoutSkinTones(text)));
  }
  const emoticon = idx.byEmoticon.get(text);
  if (emoticon) return emoticon;
  return lookupName(idx, stripColons(text));
}

/**
 * `emoji` with skin tone `tone` (1 light … 5 dark) where the data set has that variant; the emoji
 * itself where it takes no tone; undefined for a tone out of range.
 */
export function withSkinTone(emoji: ResolvedEmoji, tone: number): ResolvedEmoji | undefined {
  const modifier = SKIN_TONES[tone - 1];
  if (!Number.isInteger(tone) || modifier === undefined) return undefined;
  const base = emoji.base ?? emoji;
  return emojiIndex().byKey.get(emojiKey(toned(base.bare, modifier))) ?? base;
}

/** Every emoji of the data set without a skin tone, in the data set's order (for suggesting names). */
export function listEmoji(): readonly ResolvedEmoji[] {
  const all = new Set(emojiIndex().byKey.values());
  return [...all].filter((emoji) => emoji.base === undefined);
}

/** Shortcode spelling used in comparisons: lower case, no surrounding colons. */
export function normalizeShortcode(text: string): string {
  return stripColons(text.trim()).toLowerCase();
}

function lookupName(idx: EmojiIndex, name: string): ResolvedEmoji | undefined {
  const lower = name.toLowerCase();
  return idx.byName.get(lower) ?? idx.byName.get(lower.replace(/[\s-]+/gu, "_"));
}

function stripColons(text: string): string {
  return text.length > 2 && text.startsWith(":") && text.endsWith(":") ? text.slice(1, -1) : text;
}

/** The tone modifier follows the first code point, also in ZWJ sequences (🙅🏼‍♂️). */
function toned(bare: string, tone: number): string {
  const head = String.fromCodePoint(bare.codePointAt(0) as number);
  return head + String.fromCodePoint(tone) + bare.slice(head.length);
}

function withoutSkinTones(text: string): string {
  let out = "";
  for (const char of text) {
    if (!SKIN_TONES.includes(char.codePointAt(0) as number)) out += char;
  }
  return out;
}

function emojiIndex(): EmojiIndex {
  if (index) return index;
  const data = emojiDataSet();
  const built: EmojiIndex = { byKey: new Map(), byName: new Map(), byEmoticon: new Map() };
  const byHexcode = new Map<string, ResolvedEmoji>();
  const shortcodesOf = (hexcode: string): string[] => {
    const names = new Set<string>();
    for (const set of data.shortcodes) {
      const value = set[hexcode];
      if (value === undefined) continue;
      for (const name of Array.isArray(value) ? value : [value]) names.add(name);
    }
    return [...names];
  };
  const add = (emoji: CompactEmoji, base: ResolvedEmoji | undefined): ResolvedEmoji => {
    const bare = stripVariationSelectors(emoji.unicode);
    const tone = base ? SKIN_TONES.findIndex((t) => bare.includes(String.fromCodePoint(t))) + 1 : 0;
    const resolved: ResolvedEmoji = Object.freeze({
      unicode: emoji.unicode,
      bare,
      hexcode: emoji.hexcode,
      label: emoji.label,
      shortcodes: Object.freeze(shortcodesOf(emoji.hexcode)),
      tags: Object.freeze(emoji.tags ?? base?.tags ?? []),
      ...(tone > 0 ? { skinTone: tone } : {}),
      ...(base ? { base } : {}),
      ...(emoji.group !== undefined ? { group: emoji.group } : {}),
      ...(emoji.order !== undefined ? { order: emoji.order } : {}),
    });
    const key = emojiKey(bare);
    if (!built.byKey.has(key)) built.byKey.set(key, resolved);
    byHexcode.set(emoji.hexcode, resolved);
    return resolved;
  };
  for (const emoji of data.emojis) {
    const resolved = add(emoji, undefined);
    for (const skin of emoji.skins ?? []) add(skin, resolved);
    const emoticons = emoji.emoticon === undefined ? [] : [emoji.emoticon].flat();
    for (const emoticon of emoticons) if (!built.byEmoticon.has(emoticon)) built.byEmoticon.set(emoticon, resolved);
  }
  // A name two sets give to different emoji means what the more familiar set says (GitHub/Slack
  // `point_up` is ☝️, emojibase's is 👆), so names are claimed set by set, not emoji by emoji.
  for (const set of data.shortcodes) {
    for (const [hexcode, value] of Object.entries(set)) {
      const resolved = byHexcode.get(hexcode);
      if (!resolved) continue;
      for (const name of Array.isArray(value) ? value : [value]) {
        if (!built.byName.has(name.toLowerCase())) built.byName.set(name.toLowerCase(), resolved);
      }
    }
  }
  index = built;
  return built;
}
