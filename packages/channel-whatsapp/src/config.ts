import { reconnectOptionsShape, retryOptionsShape } from "@chorus/channel-kit";
import { z } from "@chorus/core";

/**
 * Config keys whose values are secrets: none. WhatsApp has no token; the linked device's keys
 * live in the auth directory and the redactor learns them when it reads them (`link/secrets.ts`).
 */
export const WHATSAPP_SECRET_KEYS: readonly string[] = [];

const ms = (name: string, min: number) =>
  z
    .number({ error: `${name} must be a number of milliseconds` })
    .int(`${name} must be a whole number of milliseconds`)
    .min(min, `${name} must be at least ${min} ms`);

/**
 * `channels.whatsapp` (or one account under `channels.whatsapp.accounts.<name>`). The gateway
 * strips its own keys (groupPolicy, allowFrom, groups, …) and substitutes `${ENV}` before this
 * runs. There is no token: the account is linked once with `chorus channels login whatsapp`.
 */
export const whatsappConfigSchema = z
  .object({
    /** WhatsApp Web's WebSocket endpoint; a test fake or a relay in between. */
    waWebSocketUrl: z
      .url({
        protocol: /^wss?$/,
        error: "waWebSocketUrl must be a ws:// or wss:// URL such as wss://web.whatsapp.com/ws/chat",
      })
      .default("wss://web.whatsapp.com/ws/chat"),
    /** Where the linked device's credentials live; `<stateDir>/auth` when unset. */
    authDir: z.string().min(1, "authDir must be a non-empty path").optional(),
    /** The name the phone shows under Linked devices. */
    browserName: z
      .string()
      .trim()
      .min(1, "browserName must be a non-empty name")
      .max(40, "browserName must be at most 40 characters")
      .default("Chorus"),
    /** How long a group's subject and participants are cached. */
    groupMetadataTtlMs: ms("groupMetadataTtlMs", 0).default(5 * 60_000),
    /** First and longest pause between reconnect attempts after the connection dropped (the kit's defaults). */
    ...reconnectOptionsShape,
    /** How long one connection attempt may take, and how long `start()` waits for the first one. */
    connectTimeoutMs: ms("connectTimeoutMs", 1_000).default(20_000),
    /**
     * How long a send or reaction waits for WhatsApp to acknowledge it, a query (a group lookup,
     * a device list) for its answer, and a media upload with no byte moving. Without an ack a send fails (retryable) but is not
     * sent again: it may have arrived.
     */
    ackTimeoutMs: ms("ackTimeoutMs", 100).default(15_000),
    /** Retries of a group lookup or a send that failed because the connection was down (the kit's default). */
    retries: retryOptionsShape.retries,
    /** Mark messages the gateway received as read (blue ticks). */
    sendReadReceipts: z.boolean({ error: "sendReadReceipts must be true or false" }).default(false),
    /**
     * Messages people sent while the gateway was disconnected arrive late (WhatsApp delivers them
     * at the next login); those sent within this window are answered, older ones are left alone.
     */
    offlineCatchUpMs: ms("offlineCatchUpMs", 0).default(10 * 60_000),
    /** How long each QR code of `chorus channels login whatsapp` stays valid. */
    qrTimeoutMs: ms("qrTimeoutMs", 1_000).default(60_000),
    /**
     * The ffmpeg that turns a voice note that is no Ogg/Opus into one (WhatsApp plays only those):
     * a path, or a name looked up on PATH; default `ffmpeg` on PATH. Without one such a voice
     * note goes out as an audio file.
     */
    ffmpegPath: z.string().trim().min(1, "ffmpegPath must be a path or a program name such as ffmpeg").optional(),
  })
  .strict()
  .superRefine((config, ctx) => {
    if (config.reconnectMaxMs < config.reconnectMinMs) {
      ctx.addIssue({
        code: "custom",
        path: ["reconnectMaxMs"],
        message: "reconnectMaxMs must be ≥ reconnectMinMs",
      });
    }
  });

/** The validated config a WhatsApp instance runs with (defaults filled in). */
export type WhatsAppConfig = z.output<typeof whatsappConfigSchema>;
