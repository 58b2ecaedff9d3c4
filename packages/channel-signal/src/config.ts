import { reconnectOptionsShape, retryOptionsShape } from "@chorus/channel-kit";
import { z } from "@chorus/core";

/** An E.164 phone number: `+`, a country code, at most 15 digits. */
export const E164 = /^\+[1-9]\d{6,14}$/;

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** `channels.signal`, or one number under `channels.signal.accounts.<name>`: the gateway picks the account. */
export const signalConfigSchema = z
  .object({
    /** The bot's number, linked as a device with `chorus channels login signal`. */
    account: z
      .string({ error: "account is required: the bot's Signal number in E.164 form (+15551234567)" })
      .regex(E164, "account must be a phone number in E.164 form (+15551234567)"),
    /** Where `signal-cli daemon --http` answers; tests point it at a loopback fake. */
    httpUrl: z
      .url({ protocol: /^https?$/, error: "httpUrl must be the http(s) URL of a signal-cli daemon --http" })
      .default("http://127.0.0.1:8080"),
    /** Basic auth for a reverse proxy in front of the daemon (signal-cli itself has none). */
    auth: z
      .object({
        username: z.string().min(1, "auth.username is required with auth"),
        password: z.string().min(1, "auth.password is required with auth"),
      })
      .strict()
      .optional(),
    /** Start and supervise `<cliPath> -a <account> daemon --http <host:port of httpUrl>` with the channel. */
    autoStart: z.boolean().default(false),
    /** The signal-cli launcher `autoStart` and the login run: a name on PATH or a path. */
    cliPath: z.string().min(1, "cliPath must name the signal-cli executable").default("signal-cli"),
    /** How long a started daemon may take to answer `/api/v1/check` (the JVM starts slowly). */
    startupTimeoutMs: z.number().int().min(1_000).max(600_000).default(60_000),
    /** The event stream counts as dead after this long without a byte (the daemon sends a keep-alive every 15 s). */
    idleTimeoutMs: z.number().int().min(500).max(600_000).default(60_000),
    // retries, maxRetryAfterMs, timeoutMs, reconnectMinMs, reconnectMaxMs: the kit's keys and defaults.
    ...retryOptionsShape,
    ...reconnectOptionsShape,
  })
  .strict()
  .superRefine((config, ctx) => {
    const url = new URL(config.httpUrl);
    if (url.username !== "" || url.password !== "") {
      ctx.addIssue({
        code: "custom",
        path: ["httpUrl"],
        message: "put the proxy's credentials in auth, not in httpUrl",
      });
    }
    if (!config.autoStart) return;
    if (url.protocol !== "http:" || !LOOPBACK_HOSTS.has(url.hostname)) {
      ctx.addIssue({
        code: "custom",
        path: ["httpUrl"],
        message: "with autoStart the daemon listens on this machine: httpUrl must be http://127.0.0.1:<port>",
      });
    }
  });

/** The validated config a Signal instance runs with (defaults filled in). */
export type SignalConfig = z.output<typeof signalConfigSchema>;

/** The config keys whose values are secrets: never logged, shown or reported. */
export const SIGNAL_SECRET_KEYS = ["auth.password"] as const;

/** The `host:port` the daemon listens on for `httpUrl` (`--http` of `signal-cli daemon`). */
export function daemonAddress(httpUrl: string): string {
  const url = new URL(httpUrl);
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return `${url.hostname === "localhost" ? "127.0.0.1" : url.hostname.replace(/^\[|\]$/g, "")}:${port}`;
}
