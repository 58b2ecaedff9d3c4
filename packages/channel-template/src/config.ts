import { z } from "zod";

/**
 * `channels.acme` (or one account under `channels.acme.accounts.<name>`). The gateway picks the
 * account and validates its block with this schema, so nothing here knows about accounts.
 */
export const acmeConfigSchema = z
  .object({
    /** Self-hosted Acme servers and tests (a loopback fake) need a different API root. */
    baseUrl: z
      .url({ protocol: /^https?$/, error: "baseUrl must be an http(s) URL of the Acme Chat API" })
      .default("https://api.acme.example"),
    /** The bot token from the Acme developer console; sent as `Authorization: Bearer …`. */
    token: z.string({ error: "token is required (the bot token from the Acme console)" }).min(1, "token is required"),
    /** Signs every webhook; without it anyone who knows the URL could post fake messages. */
    webhookSecret: z
      .string({ error: "webhookSecret is required (Acme console → Webhooks → Signing secret)" })
      .min(16, "webhookSecret looks truncated: Acme signing secrets are at least 16 characters"),
    /** Retries of one request after a 5xx, a network error or a short rate limit. */
    retries: z.number().int().min(0).max(10).default(2),
    /** Longest Retry-After the client waits out itself; a longer one fails at once with E_RATE_LIMITED. */
    maxRetryAfterMs: z.number().int().min(0).default(10_000),
    /** One HTTP request gives up after this long (and counts as a network error). */
    timeoutMs: z.number().int().min(100).default(15_000),
  })
  .strict();

/** The validated config an Acme instance runs with (defaults filled in). */
export type AcmeConfig = z.output<typeof acmeConfigSchema>;
