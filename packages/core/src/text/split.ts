/** How long a piece of text is for a platform (UTF-16 units by default, as most APIs count). */
export type TextMeasure = (text: string) => number;

const utf16Length: TextMeasure = (text) => text.length;

const BOUNDARIES: readonly RegExp[] = [/\n\s*\n/gu, /\n/gu, /(?<=[.!?…])\s+/gu, /\s+/gu];

/**
 * Splits text into parts no longer than `limit`, preferring paragraph, line, sentence and word
 * boundaries, never cutting a surrogate pair or grapheme joiner sequence in half.
 */
export function splitText(text: string, limit: number, measure: TextMeasure = utf16Length): string[] {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
  const parts: string[] = [];
  let rest = text;
  while (measure(rest) > limit) {
    const cut = findCut(rest, limit, measure);
    const head = rest.slice(0, cut).trimEnd();
    if (head !== "") parts.push(head);
    rest = rest.slice(cut).replace(/^\s+/u, "");
  }
  if (rest.trim() !== "" || parts.length === 0) parts.push(rest);
  return parts;
}

function findCut(text: string, limit: number, measure: TextMeasure): number {
  const fits = largestFittingPrefix(text, limit, measure);
  const window = text.slice(0, fits + 1);
  let cut = -1;
  for (const boundary of BOUNDARIES) {
    cut = lastMatchAt(window, boundary, fits);
    // Take a boundary only when the part keeps at least a third of the room.
    if (cut > 0 && measure(text.slice(0, cut)) >= limit / 3) return cut;
  }
  // The last boundary is between words: rather a short part than a cut inside a word.
  return cut > 0 ? cut : fits;
}

/** Index of the last match of `pattern` in `text` starting in 1..`max`, or -1. */
function lastMatchAt(text: string, pattern: RegExp, max: number): number {
  let at = -1;
  for (const match of text.matchAll(pattern)) if (match.index > 0 && match.index <= max) at = match.index;
  return at;
}

/** Made on the first cut that needs it: creating one costs ~15 ms and ~3 MB (ICU data) in every process. */
let segmenter: Intl.Segmenter | undefined;
const graphemes = (): Intl.Segmenter => (segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" }));
/** Code units before a cut that are segmented to find the grapheme boundary (a cluster is never this long in practice). */
const SNAP_WINDOW = 1024;

/** Longest prefix that measures within `limit` and ends on a grapheme boundary (at least one code point). */
function largestFittingPrefix(text: string, limit: number, measure: TextMeasure): number {
  const fits = longestFitting(text, limit, measure);
  // Grapheme segmentation is slow (ICU, microseconds per cluster): segment only a window before
  // the cut, never the whole prefix, and take its last boundary that still fits.
  if (fits === text.length) return fits;
  const start = Math.max(0, fits - SNAP_WINDOW);
  const end = Math.min(text.length, fits + 64);
  let best = 0;
  for (const { index } of graphemes().segment(text.slice(start, end))) {
    const at = start + index;
    if (at > fits) break;
    if (at > 0) best = at;
  }
  if (best > 0) return best;
  // One grapheme longer than the limit: cut it between code points.
  const first = text.codePointAt(0) ?? 0;
  return first > 0xffff ? 2 : 1;
}

/** Longest prefix (in code units, not cutting a surrogate pair) that measures within `limit`. */
function longestFitting(text: string, limit: number, measure: TextMeasure): number {
  // Measure growing prefixes first, so a long text is never measured whole at every cut.
  let size = Math.min(text.length, limit + 1);
  while (size < text.length && measure(text.slice(0, size)) <= limit) size = Math.min(text.length, size * 2);
  let lo = 0;
  let hi = size;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (measure(text.slice(0, mid)) <= limit) lo = mid;
    else hi = mid - 1;
  }
  return lo > 0 && lo < text.length && isHighSurrogate(text.charCodeAt(lo - 1)) ? lo - 1 : lo;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
