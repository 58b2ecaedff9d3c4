/** `Retry-After` as delay-seconds or an HTTP date (RFC 9110 §10.2.3) in ms; missing or broken → 1 s. */
export function parseRetryAfter(header: string | null | undefined, now = Date.now()): number {
  if (header === null || header === undefined || header.trim() === "") return 1_000;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, Math.round(seconds * 1000));
  const date = Date.parse(header);
  return Number.isNaN(date) ? 1_000 : Math.max(0, date - now);
}
