import { createHash, createHmac, timingSafeEqual } from "node:crypto";

/**
 * Compares two secrets in constant time. Both are hashed first, so neither the contents nor the
 * length of the expected value leak through timing (`===` stops at the first wrong byte).
 */
export function safeEqual(a: string | Uint8Array, b: string | Uint8Array): boolean {
  const digest = (value: string | Uint8Array) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** HMAC-SHA256 of `data` with `secret`, as bytes. */
export function hmacSha256(secret: string | Uint8Array, data: string | Uint8Array): Buffer {
  return createHmac("sha256", secret).update(data).digest();
}

/** HMAC-SHA256 of `data` with `secret`, as lower-case hex (the form most webhook headers use). */
export function hmacSha256Hex(secret: string | Uint8Array, data: string | Uint8Array): string {
  return hmacSha256(secret, data).toString("hex");
}
