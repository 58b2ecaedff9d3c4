import { reconnectOptionsShape, retryOptionsShape } from "@chorus/channel-kit";
import { z } from "@chorus/core";
import { DEFAULT_MEDIA_HOSTS } from "./zalo/hosts.js";

const ms = (name: string, min: number) =>
  z
    .number({ error: `${name} must be a number of milliseconds` })
    .int(`${name} must be a whole number of milliseconds`)
    .min(min, `${name} must be at least ${min} ms`);

/** The user agent zca-js' QR login presents when none is configured (a desktop Firefox, as Zalo Web expects). */
export const DEFAULT_USER_AGENT = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";

/**
 * `channels.zalouser`, or one account under `channels.zalouser.accounts.<name>`. There are no
 * credentials here: `chorus channels login zalouser` links the account and keeps its session
 * (cookies, imei, user agent) in the channel's store.
 */
export const zalouserConfigSchema = z
  .object({
    /**
     * Sends every request for a Zalo host (`*.zalo.me`: the QR login, the login pair, the service
     * map and the listener URLs Zalo hands out) to this base URL instead: a test fake or a relay.
     * Unset, zca-js talks to Zalo's own hosts untouched.
     */
    apiBase: z
      .url({ protocol: /^https?$/, error: "apiBase must be an http(s) URL such as http://127.0.0.1:8080" })
      .optional(),
    /**
     * The domains Zalo serves media from (each with its subdomains): received photos, files, voice
     * messages and stickers are downloaded from https URLs on these (or `*.zalo.me`) only, never with
     * the session's cookies; `apiBase` redirects them too.
     */
    mediaHosts: z
      .array(
        z
          .string()
          .regex(/^([a-z0-9-]+\.)+[a-z]{2,}$/i, "each of mediaHosts must be a domain such as zdn.vn")
          .transform((host) => host.toLowerCase()),
      )
      .default([...DEFAULT_MEDIA_HOSTS]),
    /**
     * How long uploading a file or voice message may take until Zalo says it stored it (the
     * listener's `file_done`, which zca-js waits for without a limit of its own).
     */
    uploadTimeoutMs: ms("uploadTimeoutMs", 1_000).default(120_000),
    /** The browser zca-js presents at the QR login; the session keeps the one it linked with. */
    userAgent: z.string().trim().min(1, "userAgent must not be empty").default(DEFAULT_USER_AGENT),
    /** Zalo's interface language for the session (`vi`, `en`). */
    language: z
      .string()
      .regex(/^[a-z]{2}$/, "language must be a two-letter code such as vi or en")
      .default("vi"),
    /** How long a group's name and members are kept before asking Zalo again. */
    groupInfoTtlMs: ms("groupInfoTtlMs", 0).default(5 * 60_000),
    /** How long the first connection (login and listener) may take before start() reports it degraded. */
    connectTimeoutMs: ms("connectTimeoutMs", 100).default(20_000),
    /** How long each QR code of `chorus channels login zalouser` may wait to be scanned and confirmed. */
    qrTimeoutMs: ms("qrTimeoutMs", 1_000).default(100_000),
    // retries, maxRetryAfterMs, timeoutMs (one HTTP request); reconnectMinMs, reconnectMaxMs: the kit's.
    ...retryOptionsShape,
    ...reconnectOptionsShape,
  })
  .strict()
  .superRefine((config, ctx) => {
    if (config.reconnectMaxMs < config.reconnectMinMs) {
      ctx.addIssue({ code: "custom", path: ["reconnectMaxMs"], message: "reconnectMaxMs must be ≥ reconnectMinMs" });
    }
  });

/** The validated config a Zalo Personal instance runs with (defaults filled in). */
export type ZalouserConfig = z.output<typeof zalouserConfigSchema>;

/**
 * Config keys whose values are secrets: none. The secrets of this channel are the session's
 * cookies and imei, which live in the store; the redactor learns them when it reads them.
 */
export const ZALOUSER_SECRET_KEYS: readonly string[] = [];
