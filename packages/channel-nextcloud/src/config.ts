import { retryOptionsShape } from "@chorus/channel-kit";
import { z } from "zod";

/**
 * `channels.nextcloud` (or one bot under `channels.nextcloud.accounts.<name>`). The gateway picks
 * the account and validates its block with this schema, so nothing here knows about accounts.
 */
export const nextcloudConfigSchema = z
  .object({
    /** The Nextcloud server (`https://cloud.example.com`); bot calls go to its OCS API. */
    baseUrl: z.url({
      protocol: /^https?$/,
      error: "baseUrl is required: the http(s) URL of your Nextcloud server, e.g. https://cloud.example.com",
    }),
    /** The shared secret given to `occ talk:bot:install`; Talk requires 40 to 128 characters. */
    secret: z
      .string({ error: "secret is required (the shared secret you passed to occ talk:bot:install)" })
      .min(40, "secret is too short: Nextcloud Talk bot secrets are 40 to 128 characters")
      .max(128, "secret is too long: Nextcloud Talk bot secrets are 40 to 128 characters"),
    /** The bot's display name as installed; a plain-text `@<botName>` then counts as a mention of the bot. */
    botName: z.string().min(1).optional(),
    /**
     * The URL registered with `occ talk:bot:install`, when it differs from the gateway's own
     * public URL (a reverse proxy). Talk derives the bot's actor id from it.
     */
    webhookUrl: z.url({ protocol: /^https?$/, error: "webhookUrl must be an http(s) URL" }).optional(),
    /** Conversation tokens to treat as one-to-one even when the payload does not show it. */
    directConversations: z.array(z.string().min(1)).default([]),
    /** Longest message Talk accepts (`spreed → config → chat → max-length`); longer text is split. */
    maxTextLength: z.number().int().min(100).max(1_000_000).default(32_000),
    ...retryOptionsShape,
  })
  .strict();

/** The validated config a Nextcloud Talk instance runs with (defaults filled in). */
export type NextcloudConfig = z.output<typeof nextcloudConfigSchema>;

/** Config keys whose values are secrets: never shown, and removed from every log line, error and status. */
export const NEXTCLOUD_SECRET_KEYS = ["secret"] as const;
