import { reconnectOptionsShape, retryOptionsShape } from "@chorus/channel-kit";
import { z } from "@chorus/core";
import { ALBUM_WINDOW_MS } from "./album.js";

/** Telegram's rule for `secret_token`: 1–256 characters of A–Z, a–z, 0–9, `_` and `-`. */
const SECRET_TOKEN = /^[A-Za-z0-9_-]{1,256}$/;

/** Config keys that carry secrets: the redactor and the gateway never show their values. */
export const TELEGRAM_SECRET_KEYS = ["botToken", "secretToken"] as const;

/** A key an earlier version read, refused with a message naming the key that replaced it. */
const renamed = (from: string, to: string, example: string) =>
  z.never({ error: `${from} was renamed to ${to} (milliseconds): write ${example}` }).optional();

/**
 * `channels.telegram` (or one account under `channels.telegram.accounts.<name>`). The gateway
 * strips its own keys (groupPolicy, allowFrom, …) and substitutes `${ENV}` before this runs.
 * Durations are milliseconds; the kit's retry and reconnect keys keep Telegram's own defaults.
 */
export const telegramConfigSchema = z
  .object({
    /** The token @BotFather gave (`123456:ABC-…`). */
    botToken: z
      .string({ error: "botToken is required (the token @BotFather gave you, or an environment variable reference)" })
      .regex(/^\d+:[A-Za-z0-9_-]+$/, "botToken must look like 123456789:AA… (the token @BotFather gave you)"),
    /** The Bot API root; a local Bot API server or a test fake. No trailing slash (grammY's rule). */
    apiRoot: z
      .url({ protocol: /^https?$/, error: "apiRoot must be an http(s) URL such as https://api.telegram.org" })
      .transform((url) => url.replace(/\/+$/, ""))
      .default("https://api.telegram.org"),
    /** Public HTTPS URL Telegram posts updates to; set it to use webhooks instead of long polling. */
    webhookUrl: z
      .url({ protocol: /^https?$/, error: "webhookUrl must be the public http(s) URL of the webhook" })
      .optional(),
    /** Sent by Telegram in `X-Telegram-Bot-Api-Secret-Token` with every webhook delivery. */
    secretToken: z
      .string()
      .regex(SECRET_TOKEN, "secretToken must be 1-256 characters of A-Z, a-z, 0-9, _ and - (Telegram's rule)")
      .optional(),
    /** React with Telegram's big animation (`is_big`). */
    bigReactions: z.boolean().default(false),
    /** How long one `getUpdates` long poll waits for news: whole seconds on the wire (Telegram's `timeout`), 0–50 s. */
    pollTimeoutMs: z
      .number()
      .int()
      .min(0)
      .max(50_000)
      .multipleOf(1_000, "pollTimeoutMs must be whole seconds (Telegram's getUpdates timeout is in seconds)")
      .default(30_000),
    /** Retries of one API call after a 5xx, a network error or a short 429 (the kit's key, Telegram's default). */
    retries: retryOptionsShape.retries.unwrap().default(3),
    /** Longest `retry_after` a call waits out itself; a longer one fails at once with E_RATE_LIMITED. */
    maxRetryAfterMs: retryOptionsShape.maxRetryAfterMs.unwrap().default(30_000),
    /** One API call gives up after this long (a long poll after its own wait plus this). */
    timeoutMs: retryOptionsShape.timeoutMs.unwrap().default(60_000),
    /** First and longest pause between reconnect attempts of the long poll after a failure. */
    reconnectMinMs: reconnectOptionsShape.reconnectMinMs.unwrap().default(1_000),
    reconnectMaxMs: reconnectOptionsShape.reconnectMaxMs.unwrap().default(60_000),
    /** How long a chat's allowed reactions (getChat `available_reactions`) are cached. */
    chatInfoTtlMs: z
      .number()
      .int()
      .min(0)
      .default(5 * 60_000),
    /** How long to wait for the next item of an album (updates sharing a `media_group_id`) before it goes on as one message. */
    albumWindowMs: z.number().int().min(0).max(10_000).default(ALBUM_WINDOW_MS),
    timeoutSeconds: renamed("timeoutSeconds", "timeoutMs", "timeoutMs: 60000 for 60 seconds"),
    pollTimeoutSeconds: renamed("pollTimeoutSeconds", "pollTimeoutMs", "pollTimeoutMs: 30000 for 30 seconds"),
  })
  .strict()
  .superRefine((config, ctx) => {
    if (config.webhookUrl !== undefined && config.secretToken === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["secretToken"],
        message: "secretToken is required with webhookUrl: without it anyone who finds the URL can post fake updates",
      });
    }
    if (config.reconnectMaxMs < config.reconnectMinMs) {
      ctx.addIssue({ code: "custom", path: ["reconnectMaxMs"], message: "reconnectMaxMs must be ≥ reconnectMinMs" });
    }
  });

/** The validated config a Telegram instance runs with (defaults filled in). */
export type TelegramConfig = Omit<z.output<typeof telegramConfigSchema>, "timeoutSeconds" | "pollTimeoutSeconds">;
