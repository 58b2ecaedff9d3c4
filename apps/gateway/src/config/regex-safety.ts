import { requirePackage } from "../support/index.js";
import { type CharSet, intersects, type RegexNode as Node, parseRegex } from "./regex-parse.js";

/**
 * Catastrophic-backtracking analysis for the gateway's own regexes (mention patterns).
 *
 * Two checks: `safe-regex2` (star height ≤ 1, at most 25 quantifiers), run on the source with
 * lookbehinds cut out because its parser rejects them; and our own parse of the source, which
 * also finds repeated groups whose alternatives overlap — `(a|aa)+`, `(\d|\w)+`, `(.|\s)*` —
 * by testing the alternatives for unique decodability (Sardinas–Patterson over character sets).
 * Polynomial cases such as `.*.*x` are not rejected.
 */

const MAX_WORDS = 256;
const MAX_EXPANDED_REPEAT = 4;

/** `safe-regex2`, loaded the first time a pattern is checked (most configs have none). */
let safeRegex: typeof import("safe-regex2").default | undefined;
const loadSafeRegex = () => (safeRegex ??= requirePackage("safe-regex2") as typeof import("safe-regex2").default);

/** Why a regex source can backtrack catastrophically, or `undefined` when it looks safe. */
export function backtrackingRisk(source: string): string | undefined {
  const { tree, lookbehinds } = parseRegex(source);
  const own = analyse(tree, 0);
  if (own) return own;
  const withoutLookbehinds = lookbehinds.reduceRight(
    (text, [start, end]) => text.slice(0, start) + text.slice(end),
    source,
  );
  if (!loadSafeRegex()(withoutLookbehinds)) return "too many or nested quantifiers";
  return undefined;
}

function analyse(node: Node, height: number): string | undefined {
  switch (node.kind) {
    case "seq":
      return firstRisk(node.items, (item) => analyse(item, height));
    case "alt":
      return firstRisk(node.options, (option) => analyse(option, height));
    case "look":
      return analyse(node.body, height);
    case "repeat": {
      if (node.max <= 1) return analyse(node.body, height);
      if (height >= 1) return "a quantifier inside a repeated group, like (a+)+";
      const words = expand(node.body);
      if (words && !uniquelyDecodable(words)) {
        return "a repeated group whose alternatives overlap, like (a|aa)+ or (\\w|\\d)+";
      }
      return analyse(node.body, height + 1);
    }
    default:
      return undefined;
  }
}

function firstRisk<T>(items: readonly T[], check: (item: T) => string | undefined): string | undefined {
  for (const item of items) {
    const risk = check(item);
    if (risk) return risk;
  }
  return undefined;
}

/** Every fixed sequence of character sets the node can match, or undefined when unbounded or too many. */
function expand(node: Node): CharSet[][] | undefined {
  switch (node.kind) {
    case "char":
      return [[node.set]];
    case "empty":
    case "look":
      return [[]];
    case "ref":
      return undefined;
    case "alt": {
      const all: CharSet[][] = [];
      for (const option of node.options) {
        const words = expand(option);
        if (!words || all.length + words.length > MAX_WORDS) return undefined;
        all.push(...words);
      }
      return all;
    }
    case "seq": {
      let words: CharSet[][] | undefined = [[]];
      for (const item of node.items) words = product(words, expand(item));
      return words;
    }
    case "repeat": {
      if (node.max > MAX_EXPANDED_REPEAT) return undefined;
      const body = expand(node.body);
      const all: CharSet[][] = [];
      let power: CharSet[][] | undefined = [[]];
      for (let count = 0; count <= node.max; count++) {
        if (count >= node.min) all.push(...power);
        if (count === node.max) break;
        power = product(power, body);
        if (!power || all.length + power.length > MAX_WORDS) return undefined;
      }
      return all;
    }
  }
}

function product(left: CharSet[][] | undefined, right: CharSet[][] | undefined): CharSet[][] | undefined {
  if (!left || !right || left.length * right.length > MAX_WORDS) return undefined;
  return left.flatMap((a) => right.map((b) => [...a, ...b]));
}

/** Sardinas–Patterson: can a string be split into these words in two ways? Sets that overlap count as equal. */
function uniquelyDecodable(words: CharSet[][]): boolean {
  if (words.some((word) => word.length === 0)) return false;
  const seen = new Set<string>();
  const queue: Array<[number, number]> = [];
  const push = (index: number, offset: number): void => {
    const key = `${index}:${offset}`;
    if (!seen.has(key)) {
      seen.add(key);
      queue.push([index, offset]);
    }
  };
  for (const [i, a] of words.entries()) {
    for (const [j, b] of words.entries()) {
      if (i === j) continue;
      if (a.length === b.length && i < j && overlaps(a, 0, b, 0, a.length)) return false;
      if (a.length < b.length && overlaps(a, 0, b, 0, a.length)) push(j, a.length);
    }
  }
  while (queue.length > 0) {
    const [index, offset] = queue.pop() as [number, number];
    const suffix = words[index] as CharSet[];
    const rest = suffix.length - offset;
    for (const [k, word] of words.entries()) {
      const shared = Math.min(rest, word.length);
      if (!overlaps(suffix, offset, word, 0, shared)) continue;
      if (rest === word.length) return false;
      if (rest < word.length) push(k, rest);
      else push(index, offset + word.length);
    }
  }
  return true;
}

function overlaps(a: CharSet[], aStart: number, b: CharSet[], bStart: number, length: number): boolean {
  for (let i = 0; i < length; i++) {
    if (!intersects(a[aStart + i] as CharSet, b[bStart + i] as CharSet)) return false;
  }
  return true;
}
