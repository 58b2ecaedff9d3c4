import { reconnectOptionsShape, retryOptionsShape } from "@chorus/channel-kit";
import { z } from "@chorus/core";

/**
 * `channels.imessage` (or one server under `channels.imessage.accounts.<name>`). The gateway picks
 * the account, strips its own keys and validates the block with this schema.
 */
export const imessageConfigSchema = z
  .object({
    /** The BlueBubbles server (`http://mac.local:1234`, or its ngrok/Cloudflare URL). */
    serverUrl: z.url({
      protocol: /^https?$/,
      error: "serverUrl is required: the http(s) URL of your BlueBubbles server, e.g. http://192.168.1.20:1234",
    }),
    /** The server password set in the BlueBubbles app; sent as `?password=` on every call. */
    password: z
      .string({ error: "password is required (the server password from the BlueBubbles app settings)" })
      .min(1, "password must not be empty (the server password from the BlueBubbles app settings)"),
    /**
     * Secret the BlueBubbles server must present when it posts webhooks (`?secret=` in the URL it
     * was given, or the `X-Chorus-Webhook-Secret` header). Generated and kept in the channel's
     * store when absent.
     */
    webhookSecret: z.string().min(16, "webhookSecret must be at least 16 characters").optional(),
    /**
     * The URL the Mac reaches the gateway's webhook at, when it is not the gateway's own URL (a
     * reverse proxy or tunnel). Without it the gateway's `/hooks/imessage/<account>` URL is used.
     */
    webhookUrl: z.url({ protocol: /^https?$/, error: "webhookUrl must be an http(s) URL" }).optional(),
    /** Register the webhook with the server on start when it is missing. */
    registerWebhook: z.boolean().default(true),
    /** The bot's own iMessage address (phone in E.164, or Apple ID e-mail); used for mentions. */
    address: z.string().min(3).optional(),
    /** How to send: `auto` uses the Private API when the server has it, AppleScript otherwise. */
    sendMethod: z.enum(["auto", "private-api", "apple-script"]).default("auto"),
    /** Longest text of one iMessage; longer replies are split. */
    maxTextLength: z.number().int().min(100).max(100_000).default(4_000),
    // retries, maxRetryAfterMs, timeoutMs: the kit's client keys and defaults.
    ...retryOptionsShape,
    // reconnectMinMs, reconnectMaxMs: how often an unreachable server is checked again.
    ...reconnectOptionsShape,
  })
  .strict();

/** The validated config an iMessage instance runs with (defaults filled in). */
export type IMessageConfig = z.output<typeof imessageConfigSchema>;

/** The config keys whose values are secrets: never shown, and removed from every log line, error and status. */
export const IMESSAGE_SECRET_KEYS = ["password", "webhookSecret"] as const;
