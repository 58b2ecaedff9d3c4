import { randomBytes } from "node:crypto";
import { safeEqual } from "@chorus/channel-kit";
import type { ChannelStore } from "@chorus/core";

/** Where the generated webhook secret is kept in the channel's store. */
export const WEBHOOK_SECRET_KEY = "webhookSecret";

/** The shortest webhook secret accepted (configured or generated). */
export const MIN_SECRET_LENGTH = 16;

/** The header a proxy may carry the webhook secret in instead of the URL. */
export const SECRET_HEADER = "x-chorus-webhook-secret";

/**
 * The secret BlueBubbles must present on every webhook: the configured `webhookSecret`, or one
 * generated on first start and kept in the store so the registered URL stays valid.
 */
export async function loadWebhookSecret(store: ChannelStore, configured: string | undefined): Promise<string> {
  if (configured !== undefined) return configured;
  const kept = await store.update<string>(WEBHOOK_SECRET_KEY, (current) =>
    typeof current === "string" && current.length >= MIN_SECRET_LENGTH ? current : generateSecret(),
  );
  return kept as string;
}

/** A new random webhook secret (32 URL-safe characters). */
export function generateSecret(): string {
  return randomBytes(24).toString("base64url");
}

/** The secret a webhook request presents: `?secret=`, the header, or `Authorization: Bearer`. */
export function presentedSecret(request: Request): string | undefined {
  const query = new URL(request.url).searchParams.get("secret");
  if (query) return query;
  const header = request.headers.get(SECRET_HEADER);
  if (header) return header;
  const bearer = /^Bearer\s+(.+)$/iu.exec(request.headers.get("authorization") ?? "");
  return bearer?.[1];
}

/** Whether `given` is `secret`, compared in constant time. */
export function secretMatches(secret: string, given: string | undefined): boolean {
  return given !== undefined && safeEqual(secret, given);
}

/** The URL to register with BlueBubbles: the webhook URL with `?secret=` added. */
export function webhookUrlWithSecret(url: string, secret: string): string {
  const withSecret = new URL(url);
  withSecret.searchParams.set("secret", secret);
  return withSecret.toString();
}
