import { REDACTED, type Redactor } from "@chorus/channel-kit";

/** Keys whose values never reach a log line, at any depth, whatever the value. */
export const REDACTED_KEYS: ReadonlySet<string> = new Set([
  "token",
  "apiKey",
  "password",
  "secret",
  "botToken",
  "authorization",
]);

/** How deep a line's fields are walked. */
const MAX_DEPTH = 8;

/**
 * A copy of a log call's argument without secrets: the value of a key in `REDACTED_KEYS`
 * replaced, every string (and error, with its causes) passed through the redactor — by value and
 * by shape. One walk does both: pino's own path-based `redact` with wildcards cost more than this.
 */
export function redactLogValue(redactor: Redactor, value: unknown, depth = 0): unknown {
  if (typeof value === "string") return redactor.text(value);
  if (value === null || typeof value !== "object" || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((item) => redactLogValue(redactor, item, depth + 1));
  const prototype = Object.getPrototypeOf(value);
  // An error (copied with its message, stack, fields and causes redacted), a Date, a Buffer: the redactor's own way.
  if (prototype !== Object.prototype && prototype !== null) return redactor.value(value);
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value))
    copy[key] = REDACTED_KEYS.has(key) && item !== undefined ? REDACTED : redactLogValue(redactor, item, depth + 1);
  return copy;
}
