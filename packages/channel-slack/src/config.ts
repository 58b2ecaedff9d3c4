import { reconnectOptionsShape, retryOptionsShape } from "@chorus/channel-kit";
import { z } from "@chorus/core";

/** Where Slack's Web API lives; a loopback fake in tests. */
export const DEFAULT_API_URL = "https://slack.com/api/";

/**
 * Where Slack serves files (`url_private_download`, file object docs, "Authentication"): the only
 * origins the bot token is sent to for a download. Enterprise Grid answers `files.slack.com` with a
 * redirect to `files-origin.slack.com`, which wants the token too (NousResearch/hermes-agent#114483).
 */
export const DEFAULT_FILE_HOSTS = ["https://files.slack.com", "https://files-origin.slack.com"];

const fileHost = z
  .url({ protocol: /^https?$/, error: "fileHosts lists origins like https://files.slack.com" })
  .refine((value) => new URL(value).pathname === "/" && !/[?#]/.test(value), {
    message: "fileHosts lists origins (scheme and host, no path), like https://files.slack.com",
  })
  .transform((value) => new URL(value).origin);

const token = (prefix: string, key: string, where: string) =>
  z
    .string({ error: `${key} is required (${where})` })
    .refine((value) => value.startsWith(prefix), `${key} must be a ${prefix}… token (${where})`);

/** `channels.slack`, or one workspace under `channels.slack.accounts.<name>`. */
export const slackConfigSchema = z
  .object({
    /** The bot token every Web API call is made with. */
    botToken: token("xoxb-", "botToken", "OAuth & Permissions → Bot User OAuth Token"),
    /** The app-level token with `connections:write`: Socket Mode only. */
    appToken: token("xapp-", "appToken", "Basic Information → App-Level Tokens").optional(),
    /** Verifies the Events API's signed requests: HTTP mode only. */
    signingSecret: z
      .string()
      .min(16, "signingSecret looks truncated: Slack signing secrets are 32 characters (Basic Information)")
      .optional(),
    /** `socket` (the default when appToken is set) or `http` (the Events API posts to the gateway). */
    mode: z.enum(["socket", "http"]).optional(),
    /** The Web API root; Socket Mode's `apps.connections.open` goes there too. */
    apiUrl: z
      .url({ protocol: /^https?$/, error: "apiUrl must be an http(s) URL of Slack's Web API" })
      .default(DEFAULT_API_URL),
    /** Origins of Slack's file hosts: downloads send the bot token there and nowhere else. */
    fileHosts: z.array(fileHost).min(1).default(DEFAULT_FILE_HOSTS),
    /** How long `send` waits for Slack to tell under which message uploaded files were shared. */
    shareTimeoutMs: z.number().int().min(0).max(120_000).default(10_000),
    /** Answers to top-level channel messages start a thread under them. */
    replyInThread: z.boolean().default(false),
    /** How long names, titles and members looked up with users.info / conversations.* are kept. */
    lookupTtlMs: z.number().int().min(0).max(86_400_000).default(600_000),
    // retries, maxRetryAfterMs, timeoutMs, reconnectMinMs, reconnectMaxMs: the kit's keys and defaults.
    ...retryOptionsShape,
    ...reconnectOptionsShape,
  })
  .strict()
  .transform((config, ctx) => {
    const mode = config.mode ?? (config.appToken ? "socket" : "http");
    if (mode === "socket" && !config.appToken) {
      ctx.addIssue({
        code: "custom",
        path: ["appToken"],
        message: 'appToken (xapp-…) is required for mode "socket" (Basic Information → App-Level Tokens)',
      });
    }
    if (mode === "http" && !config.signingSecret) {
      ctx.addIssue({
        code: "custom",
        path: ["signingSecret"],
        message:
          'signingSecret is required for mode "http" (Basic Information → Signing Secret); or set appToken for Socket Mode',
      });
    }
    return { ...config, mode };
  });

/** The validated config a Slack instance runs with (defaults filled in, `mode` decided). */
export type SlackConfig = z.output<typeof slackConfigSchema>;

/** The config keys whose values are secrets: never logged, shown or reported. */
export const SLACK_SECRET_KEYS = ["botToken", "appToken", "signingSecret"] as const;
