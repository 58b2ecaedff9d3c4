/** A secret in every spelling a log line, a URL, JSON or a header may carry it: raw, URL-encoded, JSON-escaped, base64. */
export function secretForms(secret: string): Record<string, string> {
  return {
    raw: secret,
    "URL-encoded": encodeURIComponent(secret),
    "JSON-escaped": JSON.stringify(secret).slice(1, -1),
    base64: Buffer.from(secret).toString("base64").replace(/=+$/, ""),
  };
}

/** The spellings of `secret` found in `text` (none, when it does not leak). */
export function leakedForms(text: string, secret: string): string[] {
  return Object.entries(secretForms(secret)).flatMap(([name, form]) => (text.includes(form) ? [name] : []));
}
