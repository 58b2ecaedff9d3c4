import { createHash, randomBytes } from "node:crypto";
import { hmacSha256Hex, safeEqual } from "@chorus/channel-kit";

/** Talk refuses a bot request whose random is shorter than this. */
export const MIN_RANDOM_LENGTH = 32;

/** A fresh random for `X-Nextcloud-Talk-Bot-Random`: 64 hex characters. */
export function newRandom(): string {
  return randomBytes(32).toString("hex");
}

/** hex(HMAC-SHA256(secret, random + data)): how Talk signs and checks both directions. */
export function sign(secret: string, random: string, data: string | Uint8Array): string {
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
  return hmacSha256Hex(secret, Buffer.concat([Buffer.from(random, "utf8"), bytes]));
}

/** Whether `signature` is the signature of `random + data`, compared in constant time. */
export function signatureMatches(
  secret: string,
  random: string,
  data: string | Uint8Array,
  signature: string,
): boolean {
  if (!/^[0-9a-f]{64}$/iu.test(signature)) return false;
  return safeEqual(sign(secret, random, data), signature.toLowerCase());
}

/** The bot's actor id as Talk shows it: `bots/bot-<sha1 of the URL it was installed with>`. */
export function botActorId(webhookUrl: string): string {
  return `bots/bot-${createHash("sha1").update(webhookUrl).digest("hex")}`;
}

/** A server URL without trailing slashes, to compare `X-Nextcloud-Talk-Backend` with `baseUrl`. */
export function normalizeServerUrl(url: string): string {
  return url.trim().replace(/\/+$/u, "").toLowerCase();
}
