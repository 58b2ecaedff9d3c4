import { ChorusError } from "@chorus/core";
import {
  type AnyIssue,
  DEFAULT_MESSAGE,
  expectation,
  nestedIssues,
  typeName,
  type ZodIssueLike,
} from "./expectation.js";

export type { ZodIssueLike };

import { knownKeysAt } from "./schema-keys.js";
import { closestMatch, editDistance } from "./suggest.js";
import {
  describeKind,
  describeValue,
  formatPath,
  isPlainObject,
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
  /** The environment variable a `${NAME}` reference names, when it is unset or empty: set it, not the file. */
  variable?: string;
}

export interface ConfigErrorOptions {
  /** The config file the issues are in. */
  file?: string | undefined;
  /** The first line; `Invalid config <file>` by default. */
  title?: string | undefined;
  hint?: string | undefined;
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
  const misspelt = issue.code === "invalid_union" ? misspeltDiscriminator(issue, path, context) : undefined;
  if (misspelt) {
    context.out.push(misspelt);
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
  if (issue.code === "invalid_type" && value !== undefined) return wrongType(issue, value, secret);
  const got = describeValue(value, secret);
  if (!DEFAULT_MESSAGE.test(issue.message)) {
    return value === undefined ? issue.message : `${issue.message} (got ${got})`;
  }
  const expected = expectation(issue);
  const missing = issue.code === "invalid_type" || typeof issue.discriminator === "string";
  if (value === undefined) return missing ? `missing: ${expected}` : expected;
  return `${expected}, got ${got}`;
}

/**
 * A value of the wrong type: what was expected (with the schema's own explanation, unless it only
 * says the key is required, which a present value is not), what was there, and the likely slip.
 */
function wrongType(issue: AnyIssue, value: unknown, secret: boolean): string {
  const expected = `expected ${typeName(issue.expected)}`;
  const why = DEFAULT_MESSAGE.test(issue.message) ? undefined : explanationOf(issue.message);
  const quoting = typeof value === "number" && issue.expected === "string";
  // A secret is described by its kind only; a number that needs quotes too (the hint shows it).
  const got = secret || quoting ? describeKind(value) : describeValue(value);
  return `${expected}${why ? ` (${why})` : ""}, got ${got}${quotedHint(issue, value, secret)}`;
}

/**
 * What a schema's message for a wrong type still says when a value is there: a message that only
 * says the key is required loses that claim and keeps its explanation (`… is required (explanation)`,
 * `… is required: explanation`), or nothing; any other message is kept whole.
 */
function explanationOf(message: string): string | undefined {
  if (!/\brequired\b/i.test(message)) return message;
  const afterColon = /^[^():]*\brequired\b[^():]*:\s*(.+)$/i.exec(message)?.[1];
  if (afterColon) return afterColon.trim();
  return /^[^()]*\brequired\b[^()]*\((.+)\)\s*$/i.exec(message)?.[1]?.trim();
}

/** The usual slip behind a wrong type: quotes around a number or boolean, or none around a token or id. */
function quotedHint(issue: AnyIssue, value: unknown, secret: boolean): string {
  if (typeof value === "number" && issue.expected === "string") {
    if (secret) return " (put it in quotes)";
    // Digits past 2^53 were rounded when the file was read: showing them would show other digits.
    if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
      return " (put it in quotes, digit for digit as you have it: it is too long to be read as a number)";
    }
    return ` (write it in quotes: ${JSON.stringify(String(value))})`;
  }
  if (typeof value !== "string" || secret) return "";
  const wantsNumber = issue.expected === "number" || issue.expected === "int";
  if (wantsNumber && /^-?\d+(\.\d+)?$/.test(value.trim())) return ` (write ${value.trim()} without quotes)`;
  if (issue.expected === "boolean" && /^(true|false)$/.test(value.trim())) {
    return ` (write ${value.trim()} without quotes)`;
  }
  return "";
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

/**
 * A discriminated union whose key (`provider`) is missing while an unknown key close to it is there
 * (`provder`): that key, named as the likely typo, with the values the discriminator takes.
 */
function misspeltDiscriminator(issue: AnyIssue, path: PathSegment[], context: FormatContext): ConfigIssue | undefined {
  const key = issue.discriminator;
  if (typeof key !== "string") return undefined;
  const parentPath = path.at(-1) === key ? path.slice(0, -1) : path;
  const parent = valueAt(context.raw, parentPath);
  if (!isPlainObject(parent) || Object.hasOwn(parent, key)) return undefined;
  const known = knownKeysAt(context.schema, parentPath, context.raw) ?? [];
  // A typo is a letter or two off (`provder`, `porvider`), not any unknown key (`apikey`).
  const near = Math.min(2, Math.floor(key.length / 3));
  const unknown = Object.keys(parent).filter((name) => !known.includes(name) && editDistance(name, key) <= near);
  const typo = closestMatch(key, unknown);
  if (typo === undefined) return undefined;
  const keyPath = [...parentPath, typo];
  const entry: ConfigIssue = {
    path: formatPath(keyPath, context.prefix),
    message: `unknown key ${JSON.stringify(typo)} (did you mean ${JSON.stringify(key)}?); ${key} is missing: ${expectation(issue)}`,
  };
  entry.value = issueValue(parent[typo], isSecretPath(keyPath) || isSecretKey(key));
  return entry;
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
