import { reconnectOptionsShape, retryOptionsShape } from "@chorus/channel-kit";
import { z } from "@chorus/core";

/** Config keys whose values are secrets: never shown, and removed from every log line, error and status. */
export const DISCORD_SECRET_KEYS = ["token"] as const;

/** An http(s) base URL without its trailing slash, `fallback` when absent. */
const httpUrl = (key: string, fallback: string) =>
  z
    .url({ protocol: /^https?$/, error: `${key} must be an http(s) URL such as ${fallback}` })
    .transform((url) => url.replace(/\/+$/, ""))
    .default(fallback);

/**
 * `channels.discord` (or one account under `channels.discord.accounts.<name>`). The gateway strips
 * its own keys (groups, groupPolicy, allowFrom, …) and substitutes `${ENV}` before this runs.
 */
export const discordConfigSchema = z
  .object({
    /** The bot token (Developer Portal → your application → Bot → Reset Token). */
    token: z
      .string({
        error:
          "token is required (the bot token from the Discord Developer Portal, or an environment variable reference)",
      })
      .min(1, "token is required (the bot token from the Discord Developer Portal)"),
    /** The REST root; the gateway URL is then taken from `GET /gateway/bot`. No trailing slash. */
    apiRoot: httpUrl("apiRoot", "https://discord.com/api"),
    /**
     * Discord's CDN (attachments, stickers) and its media proxy (`proxy_url`, GIF stickers): where
     * attachments are downloaded from, without the bot token. No trailing slash.
     */
    cdnUrl: httpUrl("cdnUrl", "https://cdn.discordapp.com"),
    mediaProxyUrl: httpUrl("mediaProxyUrl", "https://media.discordapp.net"),
    /** Ask for the privileged MESSAGE_CONTENT intent (enable it in the Developer Portal too). */
    messageContent: z.boolean().default(true),
    /** Guilds the bot serves, keyed by guild id (`"*"` = all); absent = every guild it is in. */
    guilds: z
      .record(
        z.string().regex(/^(\d+|\*)$/, "guild keys are guild ids (digits) or *"),
        z.object({ enabled: z.boolean().default(true) }).strict(),
      )
      .optional(),
    // retries → discord.js' REST retries after a 5xx or a network error; timeoutMs → its request
    // timeout; maxRetryAfterMs → the longest 429 its queue sits out (a longer one is E_RATE_LIMITED).
    ...retryOptionsShape,
    // The wait before logging in again after Discord ended the session for good (a revoked token,
    // a refused intent); discord.js resumes ordinary connection losses itself.
    ...reconnectOptionsShape,
    /** How long a login waits for the gateway's READY and the guilds before it fails. */
    readyTimeoutMs: z.number().int().min(100).max(600_000).default(30_000),
  })
  .strict();

/** The validated config a Discord instance runs with (defaults filled in). */
export type DiscordConfig = z.output<typeof discordConfigSchema>;
