/** A small parser of JavaScript regex sources into what `regex-safety.ts` analyses. */

/** One character position: the code points it matches (case-insensitive) and where its ranges start. */
export interface CharSet {
  test(code: number): boolean;
  /** Starts and ends+1 of every range: where an intersection with another set must show. */
  points: number[];
}

/** A regex as far as backtracking goes: single characters, zero-width parts, sequences, alternatives, repeats. */
export type RegexNode =
  | { kind: "char"; set: CharSet }
  | { kind: "empty" }
  | { kind: "look"; body: RegexNode }
  | { kind: "ref" }
  | { kind: "seq"; items: RegexNode[] }
  | { kind: "alt"; options: RegexNode[] }
  | { kind: "repeat"; body: RegexNode; min: number; max: number };

type Range = readonly [number, number];

const DIGIT: Range[] = [[48, 57]];
const WORD: Range[] = [
  [48, 57],
  [65, 90],
  [95, 95],
  [97, 122],
];
const SPACE: Range[] = [
  [9, 13],
  [32, 32],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
const LINE_ENDS: Range[] = [
  [10, 10],
  [13, 13],
  [0x2028, 0x2029],
];
const CLASS_ESCAPES: Record<string, { ranges: Range[]; negated: boolean }> = {
  d: { ranges: DIGIT, negated: false },
  D: { ranges: DIGIT, negated: true },
  w: { ranges: WORD, negated: false },
  W: { ranges: WORD, negated: true },
  s: { ranges: SPACE, negated: false },
  S: { ranges: SPACE, negated: true },
};
const CONTROL_ESCAPES: Record<string, number> = { n: 10, r: 13, t: 9, v: 11, f: 12, "0": 0 };

/** Whether two sets share a character (checked where their ranges start, and over ASCII). */
export function intersects(a: CharSet, b: CharSet): boolean {
  for (const code of [...a.points, ...b.points]) if (a.test(code) && b.test(code)) return true;
  for (let code = 0; code < 128; code++) if (a.test(code) && b.test(code)) return true;
  return false;
}

/** A case-insensitive set from ranges (optionally negated); its points include case variants. */
function charSet(ranges: readonly Range[], negated: boolean): CharSet {
  const raw = (code: number): boolean => ranges.some(([low, high]) => code >= low && code <= high) !== negated;
  const points = new Set<number>([0]);
  for (const [low, high] of ranges) {
    for (const code of [low, high + 1]) for (const variant of caseVariants(code)) points.add(variant);
  }
  return { test: (code) => caseVariants(code).some(raw), points: [...points] };
}

function unionSet(parts: readonly CharSet[], negated: boolean): CharSet {
  const points = [...new Set(parts.flatMap((part) => part.points))];
  return { test: (code) => parts.some((part) => part.test(code)) !== negated, points };
}

function caseVariants(code: number): number[] {
  const char = String.fromCharCode(code);
  const variants = [code];
  for (const other of [char.toLowerCase(), char.toUpperCase()]) {
    if (other.length === 1 && other !== char) variants.push(other.charCodeAt(0));
  }
  return variants;
}

const single = (code: number): CharSet => charSet([[code, code]], false);

/** A lenient parser for sources `new RegExp(source, "i")` already accepted. */
class Parser {
  /** [start, end) of every outermost lookbehind group, for `safe-regex2` which cannot parse them. */
  readonly lookbehinds: Array<[number, number]> = [];
  #pos = 0;
  readonly #source: string;

  constructor(source: string) {
    this.#source = source;
  }

  parse(): RegexNode {
    return this.#alternation();
  }

  #alternation(): RegexNode {
    const options: RegexNode[] = [this.#sequence()];
    while (this.#source[this.#pos] === "|") {
      this.#pos++;
      options.push(this.#sequence());
    }
    return options.length === 1 ? (options[0] as RegexNode) : { kind: "alt", options };
  }

  #sequence(): RegexNode {
    const items: RegexNode[] = [];
    while (this.#pos < this.#source.length && this.#source[this.#pos] !== "|" && this.#source[this.#pos] !== ")") {
      items.push(this.#quantified(this.#atom()));
    }
    return { kind: "seq", items };
  }

  #quantified(atom: RegexNode): RegexNode {
    const source = this.#source;
    const char = source[this.#pos];
    let bounds: [number, number] | undefined;
    if (char === "*") bounds = [0, Number.POSITIVE_INFINITY];
    else if (char === "+") bounds = [1, Number.POSITIVE_INFINITY];
    else if (char === "?") bounds = [0, 1];
    if (bounds) {
      this.#pos++;
    } else if (char === "{") {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(this.#pos));
      if (!match) return atom;
      this.#pos += match[0].length;
      const min = Number(match[1]);
      bounds = [min, match[2] === undefined ? min : match[3] ? Number(match[3]) : Number.POSITIVE_INFINITY];
    } else {
      return atom;
    }
    if (source[this.#pos] === "?") this.#pos++;
    return { kind: "repeat", body: atom, min: bounds[0], max: bounds[1] };
  }

  #atom(): RegexNode {
    const source = this.#source;
    const char = source[this.#pos++] as string;
    if (char === "^" || char === "$") return { kind: "empty" };
    if (char === ".") return { kind: "char", set: charSet(LINE_ENDS, true) };
    if (char === "[") return { kind: "char", set: this.#bracket() };
    if (char === "(") return this.#group(this.#pos - 1);
    if (char === "\\") return this.#escape();
    return { kind: "char", set: single(char.charCodeAt(0)) };
  }

  #group(start: number): RegexNode {
    const rest = this.#source.slice(this.#pos);
    const prefix = /^\?(?::|=|!|<=|<!|<[A-Za-z_$][\w$]*>)/.exec(rest)?.[0] ?? "";
    this.#pos += prefix.length;
    const body = this.#alternation();
    this.#pos++; // ")"
    if (prefix === "?<=" || prefix === "?<!") {
      const end = this.#pos;
      const outside = this.lookbehinds.filter(([from]) => from < start);
      this.lookbehinds.splice(0, this.lookbehinds.length, ...outside, [start, end]);
      return { kind: "look", body };
    }
    return prefix === "?=" || prefix === "?!" ? { kind: "look", body } : body;
  }

  #escape(): RegexNode {
    const source = this.#source;
    const char = source[this.#pos] as string;
    if (char === "b" || char === "B") {
      this.#pos++;
      return { kind: "empty" };
    }
    const reference = /^(?:[1-9]\d*|k<[^>]*>)/.exec(source.slice(this.#pos))?.[0];
    if (reference) {
      this.#pos += reference.length;
      return { kind: "ref" };
    }
    return { kind: "char", set: this.#escaped(false).set };
  }

  /** The set of an escape after `\`, inside or outside a bracket class; `code` when it is one character. */
  #escaped(inBracket: boolean): { set: CharSet; code?: number } {
    const source = this.#source;
    const char = source[this.#pos++] as string;
    const named = CLASS_ESCAPES[char];
    if (named) return { set: charSet(named.ranges, named.negated) };
    let code = char.charCodeAt(0);
    const hex = char === "x" ? /^[0-9a-f]{2}/i : char === "u" ? /^[0-9a-f]{4}/i : undefined;
    const digits = hex?.exec(source.slice(this.#pos))?.[0];
    const control = CONTROL_ESCAPES[char];
    if (inBracket && char === "b") code = 8;
    else if (control !== undefined) code = control;
    else if (digits) {
      this.#pos += digits.length;
      code = Number.parseInt(digits, 16);
    } else if (char === "c" && /[a-z]/i.test(source[this.#pos] ?? "")) {
      code = source.charCodeAt(this.#pos++) % 32;
    }
    return { set: single(code), code };
  }

  #bracket(): CharSet {
    const source = this.#source;
    const negated = source[this.#pos] === "^";
    if (negated) this.#pos++;
    const parts: CharSet[] = [];
    while (this.#pos < source.length && source[this.#pos] !== "]") {
      const low = this.#bracketAtom();
      if (source[this.#pos] === "-" && source[this.#pos + 1] !== "]" && this.#pos + 1 < source.length) {
        this.#pos++;
        const high = this.#bracketAtom();
        if (low.code !== undefined && high.code !== undefined) {
          parts.push(charSet([[low.code, high.code]], false));
          continue;
        }
        parts.push(low.set, single(45), high.set);
        continue;
      }
      parts.push(low.set);
    }
    this.#pos++; // "]"
    return unionSet(parts, negated);
  }

  #bracketAtom(): { set: CharSet; code?: number } {
    const char = this.#source[this.#pos++] as string;
    if (char === "\\") return this.#escaped(true);
    const code = char.charCodeAt(0);
    return { set: single(code), code };
  }
}

/** The parse tree of a source `new RegExp(source, "i")` accepts, and where its outermost lookbehinds are. */
export function parseRegex(source: string): { tree: RegexNode; lookbehinds: Array<[number, number]> } {
  const parser = new Parser(source);
  const tree = parser.parse();
  return { tree, lookbehinds: parser.lookbehinds };
}
