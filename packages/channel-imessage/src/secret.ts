import { randomBytes, timingSafeEqual } from "node:crypto";
import { readState, writeState } from "./state-file.js";

const FILE = "webhook-secret.json";

/** The header a proxy may carry the webhook secret in instead of the URL. */
export const SECRET_HEADER = "x-chorus-webhook-secret";

/**
 * The secret BlueBubbles must present on every webhook: the configured `webhookSecret`, or one
 * generated on first start and kept in `stateDir` so the registered URL stays valid.
 */
export async function loadWebhookSecret(stateDir: string, configured: string | undefined): Promise<string> {
  if (configured !== undefined) return configured;
  const saved = await readState(stateDir, FILE);
  const existing = (saved as { secret?: unknown } | undefined)?.secret;
  if (typeof existing === "string" && existing.length >= 16) return existing;
  const secret = randomBytes(24).toString("base64url");
  await writeState(stateDir, FILE, { secret });
  return secret;
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
  if (given === undefined) return false;
  const a = Buffer.from(secret);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The URL to register with BlueBubbles: the webhook URL with `?secret=` added. */
export function webhookUrlWithSecret(url: string, secret: string): string {
  const withSecret = new URL(url);
  withSecret.searchParams.set("secret", secret);
  return withSecret.toString();
}
