import { ChorusError } from "@chorus/core";
import { knownKeysAt } from "./schema-keys.js";
import { closestMatch } from "./suggest.js";
import {
  describeValue,
  formatPath,
  isSecretKey,
  isSecretPath,
  issueValue,
  type PathSegment,
  valueAt,
} from "./values.js";

/** One thing wrong with a config: where, what, and the offending value (`"***"` for secrets). */
export interface ConfigIssue {
  /** `gateway.port`, `agents.list[0].model`; empty for the file as a whole. */
  path: string;
  message: string;
  value?: unknown;
}

export interface ConfigErrorOptions {
  /** The config file the issues are in. */
  file?: string;
  /** The first line; `Invalid config <file>` by default. */
  title?: string;
  hint?: string;
  cause?: unknown;
}

/** A config that cannot be used: every issue, one per line, each naming its key path. */
export class ConfigError extends ChorusError {
  override readonly name = "ConfigError";
  readonly file: string | undefined;
  readonly issues: ConfigIssue[];
  readonly #options: ConfigErrorOptions;

  constructor(issues: ConfigIssue[], options: ConfigErrorOptions = {}) {
    const title = options.title ?? (options.file ? `Invalid config ${options.file}` : "Invalid config");
    const lines = issues.map((issue) => `  - ${issue.path ? `${issue.path}: ` : ""}${issue.message}`);
    super("E_INVALID_INPUT", `${title}:\n${lines.join("\n")}`, {
      retryable: false,
      hint:
        options.hint ??
        `Fix the keys listed above in ${options.file ?? "the config"}; \`chorus config check\` checks it again.`,
      details: { file: options.file, issues },
      cause: options.cause,
    });
    this.file = options.file;
    this.issues = issues;
    this.#options = options;
  }

  /** The same issues, now naming the file they are in. */
  inFile(file: string): ConfigError {
    return new ConfigError(this.issues, { ...this.#options, file });
  }
}

/** The fields of a zod 4 issue this module reads; Standard Schema issues from zod fit too. */
export interface ZodIssueLike {
  readonly code?: string;
  readonly message: string;
  readonly path?: readonly unknown[];
}

type AnyIssue = ZodIssueLike & Record<string, unknown>;

const TYPE_NAMES: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  bigint: "a whole number",
  boolean: "true or false",
  object: "an object",
  record: "an object",
  map: "an object",
  array: "a list",
  tuple: "a list",
  set: "a list",
  null: "null",
  undefined: "nothing",
  date: "a date",
};

const DEFAULT_MESSAGE = /^(Invalid\b|Too (big|small)\b|Unrecognized keys?\b)/;

/**
 * Turns zod issues into ConfigIssues: paths under `prefix`, the offending value read from `raw`,
 * plain-English expectations, and "did you mean" for unknown keys when `schema` is given.
 */
export function formatZodIssues(
  issues: readonly ZodIssueLike[],
  raw: unknown,
  prefix = "",
  schema?: unknown,
): ConfigIssue[] {
  const out: ConfigIssue[] = [];
  for (const issue of issues) formatIssue(issue as AnyIssue, [], { raw, prefix, schema, out });
  return out;
}

interface FormatContext {
  raw: unknown;
  prefix: string;
  schema: unknown;
  out: ConfigIssue[];
}

function formatIssue(issue: AnyIssue, base: PathSegment[], context: FormatContext): void {
  const path = [...base, ...segmentsOf(issue.path)];
  if (issue.code === "unrecognized_keys" && Array.isArray(issue.keys)) {
    for (const key of issue.keys) context.out.push(unknownKey(String(key), path, context));
    return;
  }
  const branch = issue.code === "invalid_union" ? deepestBranch(issue) : undefined;
  if (branch) {
    for (const inner of branch) formatIssue(inner, path, context);
    return;
  }
  const value = valueAt(context.raw, path);
  const secret = isSecretPath(path);
  const where = formatPath(path, context.prefix);
  if (issue.code === "invalid_key") {
    const inner = nestedIssues(issue.issues)[0];
    const why = inner ? expectation(inner) : "not allowed";
    context.out.push({ path: where, message: `invalid key ${JSON.stringify(String(path.at(-1)))}: ${why}` });
    return;
  }
  const entry: ConfigIssue = { path: where, message: describeIssue(issue, value, secret) };
  if (value !== undefined) entry.value = issueValue(value, secret);
  context.out.push(entry);
}

/** `expected a number, got "abc"`, or a schema's own message with `(got …)`. */
function describeIssue(issue: AnyIssue, value: unknown, secret: boolean): string {
  const got = describeValue(value, secret);
  if (!DEFAULT_MESSAGE.test(issue.message)) {
    return value === undefined ? issue.message : `${issue.message} (got ${got})`;
  }
  const expected = expectation(issue);
  if (value === undefined) return issue.code === "invalid_type" ? `missing: ${expected}` : expected;
  return `${expected}, got ${got}${quotedHint(issue, value, secret)}`;
}

/** "write 8080 without quotes" when a number or boolean was written as a string. */
function quotedHint(issue: AnyIssue, value: unknown, secret: boolean): string {
  if (issue.code !== "invalid_type" || typeof value !== "string" || secret) return "";
  const wantsNumber = issue.expected === "number" || issue.expected === "int";
  if (wantsNumber && /^-?\d+(\.\d+)?$/.test(value.trim())) return ` (write ${value.trim()} without quotes)`;
  if (issue.expected === "boolean" && /^(true|false)$/.test(value.trim())) {
    return ` (write ${value.trim()} without quotes)`;
  }
  return "";
}

/** What the schema wanted, in plain English, starting with "expected" where that reads well. */
function expectation(issue: AnyIssue): string {
  if (!DEFAULT_MESSAGE.test(issue.message)) return issue.message;
  switch (issue.code) {
    case "invalid_type":
      return `expected ${TYPE_NAMES[String(issue.expected)] ?? `a ${String(issue.expected)}`}`;
    case "invalid_value":
      return oneOf(Array.isArray(issue.values) ? issue.values : []);
    case "too_small":
      return bound(issue, "minimum");
    case "too_big":
      return bound(issue, "maximum");
    case "invalid_format":
      return formatExpectation(issue);
    case "not_multiple_of":
      return `expected a multiple of ${String(issue.divisor)}`;
    case "invalid_union":
      return unionExpectation(issue);
    case "invalid_element":
      return `invalid value in ${String(issue.origin ?? "list")}`;
    default:
      return issue.message;
  }
}

function oneOf(values: readonly unknown[]): string {
  const shown = values.map((value) => JSON.stringify(value) ?? String(value));
  if (shown.length === 1) return `expected ${shown[0]}`;
  return `expected one of ${shown.join(", ")}`;
}

function bound(issue: AnyIssue, side: "minimum" | "maximum"): string {
  const limit = Number(issue[side]);
  const low = side === "minimum";
  const exact = issue.exact === true;
  const inclusive = issue.inclusive !== false;
  const origin = String(issue.origin ?? "value");
  if (origin === "string" || origin === "array" || origin === "set") {
    const unit = origin === "string" ? "character" : "item";
    if (low && limit === 1 && !exact)
      return origin === "string" ? "expected a non-empty string" : "expected a non-empty list";
    const units = `${limit} ${unit}${limit === 1 ? "" : "s"}`;
    if (exact) return `expected exactly ${units}`;
    return `expected ${low ? "at least" : "at most"} ${units}`;
  }
  if (inclusive) return `expected ${low ? "at least" : "at most"} ${limit}`;
  return `expected ${low ? "more" : "less"} than ${limit}`;
}

function formatExpectation(issue: AnyIssue): string {
  switch (issue.format) {
    case "url":
      return "expected a URL like https://example.com";
    case "email":
      return "expected an email address";
    case "regex":
      return `expected text matching ${String(issue.pattern)}`;
    case "starts_with":
      return `expected text starting with ${JSON.stringify(issue.prefix)}`;
    case "ends_with":
      return `expected text ending with ${JSON.stringify(issue.suffix)}`;
    case "includes":
      return `expected text containing ${JSON.stringify(issue.includes)}`;
    default:
      return `expected a valid ${String(issue.format)}`;
  }
}

/** `expected a number or a duration like "30s"`, or the discriminator values. */
function unionExpectation(issue: AnyIssue): string {
  if (Array.isArray(issue.options) && issue.options.length > 0) return oneOf(issue.options);
  const wanted = (Array.isArray(issue.errors) ? issue.errors : [])
    .map((branch) => nestedIssues(branch)[0])
    .filter((first): first is AnyIssue => first !== undefined)
    .map((first) => expectation(first).replace(/^expected /, ""));
  const unique = [...new Set(wanted)];
  return unique.length > 0 ? `expected ${unique.join(" or ")}` : "does not match any allowed form";
}

/** The union branch that got furthest (all its issues inside the value), if any did. */
function deepestBranch(issue: AnyIssue): AnyIssue[] | undefined {
  const branches = (Array.isArray(issue.errors) ? issue.errors : []).map(nestedIssues);
  const deep = branches.filter(
    (branch) => branch.length > 0 && branch.every((inner) => segmentsOf(inner.path).length > 0),
  );
  deep.sort((a, b) => a.length - b.length);
  return deep[0];
}

function nestedIssues(value: unknown): AnyIssue[] {
  return Array.isArray(value) ? (value.filter((item) => typeof item?.message === "string") as AnyIssue[]) : [];
}

function unknownKey(key: string, path: PathSegment[], context: FormatContext): ConfigIssue {
  const keyPath = [...path, key];
  const known = knownKeysAt(context.schema, path, context.raw);
  const suggestion = known ? closestMatch(key, known) : undefined;
  let message = `unknown key ${JSON.stringify(key)}`;
  if (suggestion) message += ` (did you mean ${JSON.stringify(suggestion)}?)`;
  else if (known && known.length > 0 && known.length <= 15) message += `; known keys: ${known.join(", ")}`;
  const secret = isSecretPath(keyPath) || (suggestion !== undefined && isSecretKey(suggestion));
  const entry: ConfigIssue = { path: formatPath(keyPath, context.prefix), message };
  const value = valueAt(context.raw, keyPath);
  if (value !== undefined) entry.value = issueValue(value, secret);
  return entry;
}

/** Standard Schema paths hold keys or `{ key }` objects; this keeps strings and numbers. */
export function segmentsOf(path: readonly unknown[] | undefined): PathSegment[] {
  return (path ?? []).map((segment) => {
    const key = typeof segment === "object" && segment !== null && "key" in segment ? segment.key : segment;
    return typeof key === "number" ? key : String(key);
  });
}
