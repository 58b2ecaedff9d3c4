/**
 * JSON exactly as PHP's `json_encode($value)` writes it with no flags, which is how spreed encodes
 * webhook bodies and `object.content`: `/` escaped as `\/`, every character outside ASCII as
 * `\uXXXX` (UTF-16, lower-case hex), and an empty PHP array as `[]`.
 */
export function phpJsonEncode(value: unknown): string {
  // JSON.stringify escapes what PHP escapes except `/` and non-ASCII; both only occur in strings.
  return (
    JSON.stringify(value)
      .replace(/\//gu, "\\/")
      // Without the `u` flag the class matches UTF-16 code units, so an emoji becomes its two surrogates.
      .replace(/[\u0080-\uffff]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`)
  );
}

/** PHP's `[]` for a parameter list: spreed's `getMessageParameters()` is an empty array when there are none. */
export function phpArray(record: Record<string, unknown>): Record<string, unknown> | unknown[] {
  return Object.keys(record).length === 0 ? [] : record;
}
