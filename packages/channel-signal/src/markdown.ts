/** Signal's text styles (`TextStyle.Style` in signal-cli) that Markdown can express. */
export type SignalStyle = "BOLD" | "ITALIC" | "STRIKETHROUGH" | "MONOSPACE";

/** A styled range of the plain text, in UTF-16 units (`start:length:STYLE` for `send`). */
export interface StyledRange {
  readonly start: number;
  readonly length: number;
  readonly style: SignalStyle;
}

/** Markers in the order they are tried: longer ones first, so `**` is not read as two `*`. */
const MARKERS: readonly { open: string; style: SignalStyle; code?: true }[] = [
  { open: "```", style: "MONOSPACE", code: true },
  { open: "`", style: "MONOSPACE", code: true },
  { open: "**", style: "BOLD" },
  { open: "__", style: "BOLD" },
  { open: "~~", style: "STRIKETHROUGH" },
  { open: "*", style: "ITALIC" },
  { open: "_", style: "ITALIC" },
];

/**
 * Markdown bold, italic, strikethrough and code (inline and fenced) as Signal text styles: the
 * markers leave the text and become ranges. A marker without its closing twin stays as written,
 * and so does `_` inside a word (snake_case) and everything inside code.
 */
export function markdownToStyles(markdown: string): { text: string; styles: StyledRange[] } {
  const styles: StyledRange[] = [];
  const text = render(markdown, styles, 0);
  return { text, styles: styles.sort((a, b) => a.start - b.start || b.length - a.length) };
}

function render(source: string, styles: StyledRange[], offset: number): string {
  let out = "";
  let i = 0;
  while (i < source.length) {
    const marker = MARKERS.find((m) => source.startsWith(m.open, i) && opens(source, i, m.open));
    const close = marker ? closingOf(source, i + marker.open.length, marker.open) : -1;
    if (!marker || close < 0) {
      out += source[i];
      i += 1;
      continue;
    }
    let inner = source.slice(i + marker.open.length, close);
    if (marker.code && marker.open === "```") inner = inner.replace(/^[\w+-]*\n/, "").replace(/\n$/, "");
    const start = offset + out.length;
    const rendered = marker.code ? inner : render(inner, styles, start);
    if (rendered.length > 0) styles.push({ start, length: rendered.length, style: marker.style });
    out += rendered;
    i = close + marker.open.length;
  }
  return out;
}

/** A marker opens a span when text follows it (and `_` only at a word's start). */
function opens(source: string, at: number, open: string): boolean {
  const next = source[at + open.length];
  if (next === undefined || (open !== "```" && /\s/.test(next))) return false;
  return !(open.startsWith("_") && at > 0 && /[\p{L}\p{N}]/u.test(source[at - 1] ?? ""));
}

/** Where the twin of `open` closes the span that starts at `from`, or -1. */
function closingOf(source: string, from: number, open: string): number {
  for (let at = source.indexOf(open, from); at >= 0; at = source.indexOf(open, at + 1)) {
    if (at === from) continue;
    if (open === "```") return at;
    if (/\s/.test(source[at - 1] ?? "")) continue;
    // `**` must not close a `*` span early, nor `_` end inside a word.
    if (open.length === 1 && source[at + 1] === open) {
      at += 1;
      continue;
    }
    if (open.startsWith("_") && /[\p{L}\p{N}]/u.test(source[at + open.length] ?? "")) continue;
    if (open !== "`" && source.slice(from, at).includes("\n\n")) return -1;
    return at;
  }
  return -1;
}
