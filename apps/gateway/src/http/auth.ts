import { timingSafeEqual } from "node:crypto";

/** Whether `header` is `Bearer <token>` for the gateway's token (constant-time comparison). */
export function bearerMatches(header: string | null | undefined, token: string): boolean {
  if (!header?.startsWith("Bearer ")) return false;
  return safeEqual(header.slice("Bearer ".length).trim(), token);
}

/** Constant-time string equality. */
export function safeEqual(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
