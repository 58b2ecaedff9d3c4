import { formatPath, isSecretKey, isSecretPath, type PathSegment } from "./values.js";

/** An object or list still open where the parser stopped, and what it waited for next. */
interface Frame {
  kind: "{" | "[" | "root";
  /** The line it opened on, and the offset of its bracket. */
  line: number;
  start: number;
  expect: "key" | "colon" | "value" | "comma" | "end";
  key?: string;
  /** Items read so far (lists). */
  index: number;
  /** The line the last value ended on. */
  valueLine: number;
}

/** A word (number, literal, bare key) or string the parser stopped in or on. */
interface Token {
  kind: "word" | "string" | "comment";
  text: string;
  start: number;
  line: number;
  /** A string without its closing quote on the same line. */
  open?: boolean;
}

const PUNCTUATION = "{}[],:";
const VALUE_WORD =
  /^[+-]?(Infinity|NaN|0[xX][0-9a-fA-F]+|((0|[1-9]\d*)(\.\d*)?|\.\d+)([eE][+-]?\d+)?)$|^(true|false|null)$/;
const KEY_WORD = /^[\p{L}_$][\p{L}\p{N}_$\u200c\u200d]*$/u;

/**
 * `syntax error at line L, column C: <what was expected there and the likely cause>`, then the lines
 * concerned with a caret. `line`/`column` are json5's (1-based; column 0 is the line's newline);
 * `reason` is json5's own words, kept when the text around gives nothing better. Secret values on
 * the lines shown are masked.
 */
export function explainSyntaxError(text: string, line: number, column: number, reason: string): string {
  const at = offsetOf(text, line, column);
  const { stack, stopped } = scan(text, at);
  const top = stack.at(-1) as Frame;
  const explained = stopped ? badToken(stopped, stack) : unexpected(text, at, stack);
  const errorLine = lineOf(text, at);
  const where = `line ${errorLine}, column ${at - lineStart(text, errorLine) + 1}`;
  // Show where the cause likely is: the bracket left open, the line a comma is missing from.
  let shown = [errorLine];
  let caret = at;
  if (at >= text.length && (stopped || top.kind !== "root")) {
    caret = stopped?.start ?? top.start;
    shown = [stopped?.line ?? top.line];
  } else if (!stopped && top.expect === "comma" && top.valueLine < errorLine) shown = [top.valueLine, errorLine];
  return `syntax error at ${where}: ${explained ?? reason}\n${excerpt(text, shown, caret)}`;
}

/** Reads the text up to `at` (all of it valid, or json5 would have stopped earlier). */
function scan(text: string, at: number): { stack: Frame[]; stopped?: Token } {
  const stack: Frame[] = [{ kind: "root", line: 1, start: 0, expect: "value", index: 0, valueLine: 1 }];
  let pos = 0;
  let line = 1;
  const top = () => stack.at(-1) as Frame;
  const valueDone = () => {
    const frame = top();
    frame.expect = frame.kind === "root" ? "end" : "comma";
    frame.valueLine = line;
  };
  while (pos < at) {
    const c = text[pos] as string;
    if (c === "\n") line++;
    if (/\s|\uFEFF/.test(c)) {
      pos++;
    } else if (text.startsWith("//", pos)) {
      const end = text.indexOf("\n", pos);
      pos = end === -1 ? text.length : end;
    } else if (text.startsWith("/*", pos)) {
      const end = text.indexOf("*/", pos + 2);
      if (end === -1) return { stack, stopped: { kind: "comment", text: "/*", start: pos, line } };
      const stop = end + 2;
      line += text.slice(pos, stop).split("\n").length - 1;
      pos = stop;
    } else if (PUNCTUATION.includes(c)) {
      const frame = top();
      if (c === "{" || c === "[") {
        stack.push({ kind: c, line, start: pos, expect: c === "{" ? "key" : "value", index: 0, valueLine: line });
      } else if (c === "}" || c === "]") {
        stack.pop();
        valueDone();
      } else if (c === ",") {
        frame.expect = frame.kind === "{" ? "key" : "value";
        if (frame.kind === "[") frame.index++;
      } else frame.expect = "value";
      pos++;
    } else {
      const token = readToken(text, pos, line);
      const end = token.start + token.text.length;
      const frame = top();
      const isKey = frame.kind === "{" && frame.expect === "key";
      const valid = token.kind === "string" ? !token.open : (isKey ? KEY_WORD : VALUE_WORD).test(token.text);
      if (end > at || !valid) return { stack, stopped: token };
      if (isKey) {
        frame.key = token.kind === "string" ? token.text.slice(1, -1) : token.text;
        frame.expect = "colon";
      } else valueDone();
      pos = end;
    }
  }
  return { stack };
}

function readToken(text: string, start: number, line: number): Token {
  const quote = text[start];
  if (quote === '"' || quote === "'") {
    let pos = start + 1;
    while (pos < text.length && text[pos] !== quote && text[pos] !== "\n") pos += text[pos] === "\\" ? 2 : 1;
    const open = text[pos] !== quote;
    return { kind: "string", text: text.slice(start, open ? pos : pos + 1), start, line, open };
  }
  let pos = start;
  while (pos < text.length && !/[\s{}[\],:"']/.test(text[pos] as string) && !/^\/[/*]/.test(text.slice(pos, pos + 2)))
    pos++;
  return { kind: "word", text: text.slice(start, Math.max(pos, start + 1)), start, line };
}

/** A string not closed on its line, a key that needs quotes, or text written without quotes. */
function badToken(token: Token, stack: Frame[]): string {
  const frame = stack.at(-1) as Frame;
  if (token.kind === "comment") return `the comment that starts at line ${token.line} is not closed: end it with */`;
  if (token.kind === "string") {
    return token.open
      ? `the string that starts at line ${token.line} is not closed: end it with ${token.text[0]} on the same line (write \\n for a line break)`
      : `invalid text in the string that starts at line ${token.line}`;
  }
  if (frame.kind === "{" && frame.expect === "key") {
    return `the key ${JSON.stringify(token.text)} needs quotes (a bare key is letters, digits, _ and $ only, not starting with a digit)`;
  }
  return needsQuotes(token.text, stack);
}

/** What the parser found at `at` against what the innermost open object or list waited for. */
function unexpected(text: string, at: number, stack: Frame[]): string | undefined {
  const frame = stack.at(-1) as Frame;
  const c = text[at];
  const found = foundAt(text, at);
  const path = formatPath(pathOf(stack)) || "the config";
  const closer = frame.kind === "{" ? '"}"' : '"]"';
  const container = frame.kind === "{" ? "object" : "list";
  if (c === undefined) {
    if (frame.kind === "root") return frame.expect === "value" ? 'the file has no config: expected "{"' : undefined;
    const more = stack.length > 2 ? ` (${stack.length - 1} brackets are still open)` : "";
    return `the file ends inside the ${container} opened at line ${frame.line}: expected ${closer} to close it${more}`;
  }
  if (frame.kind === "root") {
    if (frame.expect === "value") return `expected the config to start with "{", found ${found}`;
    const extra = c === "}" || c === "]" ? " — is there a closing bracket too many?" : "";
    return `found ${found} after the end of the config (its last "}" is at line ${frame.valueLine})${extra}`;
  }
  if ((c === "}" || c === "]") && c !== (frame.kind === "{" ? "}" : "]")) {
    return `expected ${closer} to close the ${container} opened at line ${frame.line}, found "${c}"`;
  }
  switch (frame.expect) {
    case "comma": {
      const after =
        frame.kind === "{"
          ? `the value of ${path}`
          : `item ${frame.index + 1} of ${formatPath(pathOf(stack.slice(0, -1))) || "the list"}`;
      const atLine = lineOf(text, at);
      if (frame.valueLine < atLine) {
        return `expected "," or ${closer} after ${after} (line ${frame.valueLine}) — is a comma missing at the end of line ${frame.valueLine}?`;
      }
      const glued = at > 0 && !/\s/.test(text[at - 1] as string) && !PUNCTUATION.includes(text[at - 1] as string);
      return `expected "," or ${closer} after ${after}, found ${found}${glued ? " — if the value is text, put it in quotes" : ""}`;
    }
    case "key":
      return `expected a key or "}" in the object opened at line ${frame.line}, found ${found}${c === "," ? " — is there a comma too many?" : ""}`;
    case "colon":
      return `expected ":" after the key ${JSON.stringify(frame.key)}, found ${found}`;
    default: {
      if (c === "," && frame.kind === "[") {
        return `expected a value or "]" in the list opened at line ${frame.line}, found "," — is there a comma too many?`;
      }
      if (/[\p{L}_$]/u.test(c)) return needsQuotes(readToken(text, at, 0).text, stack, rawValue(text, at));
      return `expected a value for ${path}, found ${found}`;
    }
  }
}

/** `expected a value for model, found gpt — text needs quotes: "gpt-4o"`; a secret's value is never shown. */
function needsQuotes(word: string, stack: Frame[], written = word): string {
  const segments = pathOf(stack);
  const path = formatPath(segments) || "the config";
  if (isSecretPath(segments)) return `expected a value for ${path}: text needs quotes`;
  return `expected a value for ${path}, found ${word} — text needs quotes: ${JSON.stringify(written)}`;
}

/** The key path of the value being read: each open object's key, each open list's index. */
function pathOf(stack: readonly Frame[]): PathSegment[] {
  const segments: PathSegment[] = [];
  for (const frame of stack) {
    if (frame.kind === "{" && frame.key !== undefined) segments.push(frame.key);
    else if (frame.kind === "[") segments.push(frame.index);
  }
  return segments;
}

/** `"]"`, `the key "channels"`, `the end of line 2`. */
function foundAt(text: string, at: number): string {
  const c = text[at] as string;
  if (c === "\n" || c === "\r") return `the end of line ${lineOf(text, at)}`;
  const word = readToken(text, at, 0);
  const isKey = /^\s*:/.test(text.slice(at + word.text.length)) && (word.kind === "string" || KEY_WORD.test(word.text));
  return isKey ? `the key ${word.kind === "string" ? word.text : JSON.stringify(word.text)}` : JSON.stringify(c);
}

/** An unquoted value as written: up to the next `,`, `}`, `]`, comment or the line's end. */
function rawValue(text: string, at: number): string {
  const rest = text.slice(at).split("\n")[0] as string;
  return rest
    .replace(/\s+\/[/*].*$/, "")
    .replace(/[,}\]].*$/, "")
    .trim();
}

function offsetOf(text: string, line: number, column: number): number {
  const start = lineStart(text, line);
  // json5 counts a line's newline as column 0 of the next line.
  return column === 0 ? Math.max(0, start - 1) : Math.min(start + column - 1, text.length);
}

function lineStart(text: string, line: number): number {
  let start = 0;
  for (let n = 1; n < line; n++) {
    const newline = text.indexOf("\n", start);
    if (newline === -1) return text.length;
    start = newline + 1;
  }
  return start;
}

function lineOf(text: string, offset: number): number {
  return text.slice(0, offset).split("\n").length;
}

/** The numbered lines with a caret under `at`, indented under the message; secret values masked. */
function excerpt(text: string, lines: readonly number[], at: number): string {
  const all = text.split("\n");
  const width = String(Math.max(...lines)).length;
  const out: string[] = [];
  const caretLine = lineOf(text, at);
  for (const n of [...new Set(lines)].sort((a, b) => a - b)) {
    const raw = (all[n - 1] ?? "").replace(/\r$/, "").replace(/\t/g, " ");
    const shown = window(maskSecrets(raw, n === caretLine ? at - lineStart(text, n) : undefined));
    out.push(`    ${String(n).padStart(width)} | ${shown.text}`);
    if (shown.caret !== undefined) out.push(`    ${" ".repeat(width)} | ${" ".repeat(shown.caret)}^`);
  }
  return out.join("\n");
}

const WIDTH = 100;

/** A long line (a config written on one line) cut to the part around the caret, else to its end. */
function window(line: { text: string; caret?: number }): { text: string; caret?: number } {
  if (line.text.length <= WIDTH) return line;
  const from = Math.max(0, Math.min(line.text.length - WIDTH, (line.caret ?? line.text.length) - WIDTH / 2));
  const text = `${from > 0 ? "…" : ""}${line.text.slice(from, from + WIDTH)}${from + WIDTH < line.text.length ? "…" : ""}`;
  return line.caret === undefined ? { text } : { text, caret: line.caret - from + (from > 0 ? 1 : 0) };
}

/** The line with each secret key's value and each URL's credentials replaced by `***`; the caret follows. */
function maskSecrets(line: string, caret?: number): { text: string; caret?: number } {
  const hidden = new Array<boolean>(line.length).fill(false);
  for (const match of line.matchAll(/(["']?)([\w$-]+)\1\s*:\s*/g)) {
    const start = (match.index ?? 0) + match[0].length;
    const quote = line[start];
    if (!isSecretKey(match[2] as string) || quote === "{" || quote === "[") continue;
    const end =
      quote === '"' || quote === "'"
        ? line.indexOf(quote, start + 1) + 1 || line.length
        : start + (/^[^\s,}\]]*/.exec(line.slice(start))?.[0].length ?? 0);
    hidden.fill(true, start, end);
  }
  for (const match of line.matchAll(/\/\/[^\s/@"']+@/g)) {
    hidden.fill(true, (match.index ?? 0) + 2, (match.index ?? 0) + match[0].length - 1);
  }
  let text = "";
  let moved: number | undefined;
  for (let i = 0; i <= line.length; i++) {
    // A caret inside a masked value points at its `***`.
    if (i === caret) moved = hidden[i] && hidden[i - 1] ? text.length - 3 : text.length;
    if (i === line.length) break;
    if (!hidden[i]) text += line[i];
    else if (!hidden[i - 1]) text += "***";
  }
  return moved === undefined ? { text } : { text, caret: moved };
}
