import { defineVocabulary, type ReactionIntent, stripVariationSelectors, unsupportedEmoji } from "@chorus/core";

const LABEL = "WhatsApp";

/**
 * WhatsApp's quick-reaction bar. Any emoji is allowed; these are only the suggestions named when
 * something that is not an emoji is refused.
 */
export const QUICK_REACTIONS = defineVocabulary(["👍", "❤️", "😂", "😮", "😢", "🙏"]);

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });
/** What makes a grapheme an emoji: a pictograph, a flag's regional indicators, or a keycap. */
const EMOJI_PART = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3/u;

/** Whether `text` is exactly one emoji (with its skin tone, ZWJ parts or variation selector). */
function isSingleEmoji(text: string): boolean {
  return [...graphemes.segment(text)].length === 1 && EMOJI_PART.test(text);
}

/**
 * The emoji as WhatsApp gets it: any single emoji (also given as a shortcode) in its fully
 * qualified form, the one phones send (`❤️` with U+FE0F, `👍` without), so the bot's reaction
 * groups with everyone else's. Anything else is `E_UNSUPPORTED_EMOJI` naming the quick reactions.
 */
export function whatsappEmoji(intent: ReactionIntent): string {
  const given = intent.emoji ?? "";
  const emoji = intent.resolved?.bare ?? given;
  if (isSingleEmoji(emoji)) return fullyQualified(emoji);
  throw unsupportedEmoji(given, QUICK_REACTIONS, LABEL);
}

const TEXT_DEFAULT = /^(?:\p{Extended_Pictographic}|[#*0-9])$/u;
const EMOJI_DEFAULT = /^\p{Emoji_Presentation}$/u;
const SKIN_TONE = /^[\u{1F3FB}-\u{1F3FF}]$/u;

/**
 * Unicode's fully qualified spelling: U+FE0F after every part that is text by default (`❤`,
 * `☺`, a keycap's digit), unless a skin tone follows it.
 */
export function fullyQualified(emoji: string): string {
  const parts = [...stripVariationSelectors(emoji)];
  let out = "";
  for (const [index, part] of parts.entries()) {
    out += part;
    const next = parts[index + 1] ?? "";
    const textDefault = TEXT_DEFAULT.test(part) && !EMOJI_DEFAULT.test(part);
    const keycapBase = /^[#*0-9]$/.test(part);
    if (textDefault && !SKIN_TONE.test(next) && (!keycapBase || next === "\u20E3")) out += "\uFE0F";
  }
  return out;
}
