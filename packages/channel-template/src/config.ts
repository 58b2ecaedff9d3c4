import { retryOptionsShape } from "@chorus/channel-kit";
import { z } from "@chorus/core";

/** `channels.acme`, or one account under `channels.acme.accounts.<name>`: the gateway picks the account. */
export const acmeConfigSchema = z
  .object({
    /** Self-hosted Acme servers and tests (a loopback fake) need another API root. */
    baseUrl: z
      .url({ protocol: /^https?$/, error: "baseUrl must be an http(s) URL of the Acme Chat API" })
      .default("https://api.acme.example"),
    token: z.string({ error: "token is required (Acme console → Bots → token)" }).min(1, "token is required"),
    /** Without it anyone who knows the webhook URL could post messages in a user's name. */
    webhookSecret: z
      .string({ error: "webhookSecret is required (Acme console → Webhooks → Signing secret)" })
      .min(16, "webhookSecret looks truncated: Acme signing secrets are at least 16 characters"),
    // retries, maxRetryAfterMs, timeoutMs: the kit's keys and defaults, the same on every channel.
    ...retryOptionsShape,
  })
  .strict();

/** The validated config an Acme instance runs with (defaults filled in). */
export type AcmeConfig = z.output<typeof acmeConfigSchema>;

/** The config keys whose values are secrets: never logged, shown or reported. */
export const ACME_SECRET_KEYS = ["token", "webhookSecret"] as const;
