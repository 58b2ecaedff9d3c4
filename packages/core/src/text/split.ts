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

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** Longest prefix that measures within `limit` and ends on a grapheme boundary (at least one code point). */
function largestFittingPrefix(text: string, limit: number, measure: TextMeasure): number {
  // Segment only a prefix that already measures over the limit: segmenting the whole rest on
  // every cut made long texts quadratic. Its last segment may be a cut-off grapheme, so drop it;
  // and it must end on a code point, or the break before a half pair would be misjudged.
  let size = Math.min(text.length, limit + 1);
  while (size < text.length && measure(text.slice(0, size)) <= limit) size = Math.min(text.length, size * 2);
  if (size < text.length && isHighSurrogate(text.charCodeAt(size - 1))) size++;
  const ends: number[] = [];
  for (const { index, segment } of segmenter.segment(text.slice(0, size))) ends.push(index + segment.length);
  if (size < text.length) ends.pop();
  let lo = 0;
  let hi = ends.length - 1;
  let best = 0;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const end = ends[mid] as number;
    if (measure(text.slice(0, end)) <= limit) {
      best = end;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  if (best > 0) return best;
  // One grapheme longer than the limit: cut it between code points.
  const first = text.codePointAt(0) ?? 0;
  return first > 0xffff ? 2 : 1;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
