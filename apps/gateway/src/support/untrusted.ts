/*
 * Text people choose — display names, group subjects, emoji names, message ids — made fit for one
 * line of a prompt, a batch or a system event: the gateway's one sanitiser for such text.
 */

/** Zero-width (U+200B–U+200F, U+2060–U+2064, U+FEFF) and bidi (U+202A–U+202E, U+2066–U+2069) characters. */
export const INVISIBLE_CHARS = "\\u200B-\\u200F\\u2060-\\u2064\\uFEFF\\u202A-\\u202E\\u2066-\\u2069";
const INVISIBLE = new RegExp(`[${INVISIBLE_CHARS}]`, "g");
/** The same, except a zero-width joiner inside an emoji sequence (👩‍💻 stays one emoji). */
const INVISIBLE_OUTSIDE_EMOJI = new RegExp(
  `(?!(?<=[\\p{Extended_Pictographic}\\p{Emoji_Modifier}]\\uFE0F?)\\u200D(?=\\p{Extended_Pictographic}))[${INVISIBLE_CHARS}]`,
  "gu",
);
/** Control characters and line and paragraph separators. */
const LINE_BREAKING = /[\p{Cc}\p{Zl}\p{Zp}]+/gu;

/** The text without zero-width and bidi control characters, so `Cho\u200Brus` reads `Chorus`. */
export function stripInvisible(text: string): string {
  return text.replace(INVISIBLE, "");
}

/**
 * Text fit for one line: no line breaks, control or invisible characters (emoji sequences kept),
 * brackets as parentheses (so it cannot write a `[from: …]` or batch marker), spaces collapsed,
 * at most `maxChars` characters (then `…`); may be empty.
 */
export function oneLine(text: string, maxChars = 80): string {
  const cleaned = text
    .replace(INVISIBLE_OUTSIDE_EMOJI, "")
    .replace(LINE_BREAKING, " ")
    .replace(/[[\uFF3B]/g, "(")
    .replace(/[\]\uFF3D]/g, ")")
    .replace(/\s+/g, " ")
    .trim();
  return cleaned.length > maxChars ? `${cleaned.slice(0, maxChars)}…` : cleaned;
}
