/** One step into a config tree: an object key or an array index. */
export type PathSegment = string | number;

/** Keys whose values are secrets: shown as `"***"` in every message, never in clear. */
const SECRET_KEY =
  /(token|api[-_]?key|password|passwd|passphrase|secret|credential|private[-_]?key|authorization|cookie|signing[-_]?key|encrypt[-_]?key)/i;

const IDENTIFIER = /^[A-Za-z_$][\w$-]*$/;

/** `gateway.auth.token`, `agents.list[0].model`, `channels.whatsapp.groups["123@g.us"]`. */
export function formatPath(segments: readonly PathSegment[], prefix = ""): string {
  let text = prefix;
  for (const segment of segments) {
    if (typeof segment === "number") text += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) text += text === "" ? segment : `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text;
}

/** True when a key's value is a secret (token, apiKey, password, secret, botToken, …). */
export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

/** True when any key on the path names a secret, so the value there must not be shown. */
export function isSecretPath(segments: readonly PathSegment[]): boolean {
  // The state database URL carries its password.
  if (segments[0] === "state" && segments[1] === "url") return true;
  return segments.some((segment) => typeof segment === "string" && isSecretKey(segment));
}

/** The value at `segments` inside `root`, or `undefined` when the path does not exist. */
export function valueAt(root: unknown, segments: readonly PathSegment[]): unknown {
  let node = root;
  for (const segment of segments) {
    if (typeof node !== "object" || node === null) return undefined;
    if (!Object.hasOwn(node, segment)) return undefined;
    node = (node as Record<PathSegment, unknown>)[segment];
  }
  return node;
}

/** The value as stored in a `ConfigIssue`: masked when it sits under a secret key. */
export function issueValue(value: unknown, secret: boolean): unknown {
  return secret && value !== undefined ? "***" : value;
}

/** A short human rendering of a config value: `"abc"`, `42`, `null`, `a list of 3 items`, `an object`. */
export function describeValue(value: unknown, secret = false): string {
  if (value === undefined) return "nothing";
  if (secret) return '"***"';
  if (typeof value === "string") {
    const shown = value.length > 60 ? `${value.slice(0, 57)}…` : value;
    return JSON.stringify(shown);
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return "an empty list";
    return value.length === 1 ? "a list of 1 item" : `a list of ${value.length} items`;
  }
  if (value === null) return "null";
  if (typeof value === "object") return "an object";
  return String(value);
}

/** What kind of value it is, never the value: `a number`, `a string`, `a list`, `an object`, `a boolean`, `null`. */
export function describeKind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  switch (typeof value) {
    case "string":
      return "a string";
    case "number":
      return "a number";
    case "boolean":
      return "a boolean";
    case "object":
      return "an object";
    default:
      return "nothing";
  }
}

/** True for a plain JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
