/** The fields of a zod 4 issue these messages read; Standard Schema issues from zod fit too. */
export interface ZodIssueLike {
  readonly code?: string | undefined;
  readonly message: string;
  readonly path?: readonly unknown[] | undefined;
}

/** A zod issue with the fields of its code. */
export type AnyIssue = ZodIssueLike & Record<string, unknown>;

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

/** `a string`, `a list`: zod's name of a type in plain English. */
export function typeName(expected: unknown): string {
  return TYPE_NAMES[String(expected)] ?? `a ${String(expected)}`;
}

/** zod's own messages (a schema's own words are kept; zod's are replaced with plainer ones). */
export const DEFAULT_MESSAGE = /^(Invalid\b|Too (big|small)\b|Unrecognized keys?\b)/;

/** What the schema wanted, in plain English, starting with "expected" where that reads well. */
export function expectation(issue: AnyIssue): string {
  if (!DEFAULT_MESSAGE.test(issue.message)) return issue.message;
  switch (issue.code) {
    case "invalid_type":
      return `expected ${typeName(issue.expected)}`;
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

/** The issues in a list that look like issues (a union's branches, an invalid key's reasons). */
export function nestedIssues(value: unknown): AnyIssue[] {
  return Array.isArray(value) ? (value.filter((item) => typeof item?.message === "string") as AnyIssue[]) : [];
}
