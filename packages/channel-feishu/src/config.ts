import { reconnectOptionsShape, retryOptionsShape } from "@chorus/channel-kit";
import { z } from "@chorus/core";

/** Where each named domain's Open API lives; a URL (self-hosted, a test fake) is used as it is. */
export const FEISHU_DOMAINS = {
  feishu: "https://open.feishu.cn",
  lark: "https://open.larksuite.com",
} as const;

/** The SDK's long connection refuses any other app id shape, so the config does too, with a clearer message. */
const APP_ID = /^cli_[0-9a-f]{16}$/i;

const DOMAIN_ERROR = 'domain must be "feishu", "lark" or an http(s) URL of the Open API';

function isHttpUrl(value: string): boolean {
  return URL.canParse(value) && /^https?:$/u.test(new URL(value).protocol);
}

/** `channels.feishu`, or one app under `channels.feishu.accounts.<name>`: the gateway picks the account. */
export const feishuConfigSchema = z
  .object({
    appId: z
      .string({ error: "appId is required (developer console → Credentials & Basic Info → App ID, cli_…)" })
      .regex(APP_ID, "appId must look like cli_ followed by 16 hex digits (developer console → App ID)"),
    appSecret: z
      .string({ error: "appSecret is required (developer console → Credentials & Basic Info → App Secret)" })
      .min(1, "appSecret is required"),
    /** `feishu` (open.feishu.cn), `lark` (open.larksuite.com) or the URL of another Open API (a private deployment, a fake). */
    domain: z
      .string({ error: DOMAIN_ERROR })
      .refine((domain) => domain in FEISHU_DOMAINS || isHttpUrl(domain), DOMAIN_ERROR)
      .default("feishu"),
    /** How events arrive: the SDK's long connection (no public URL needed) or webhooks to the gateway. */
    mode: z.enum(["websocket", "webhook"], { error: 'mode must be "websocket" or "webhook"' }).default("websocket"),
    /** Events & Callbacks → Encryption Strategy → Verification Token; every webhook delivery must carry it. */
    verificationToken: z.string().min(1, "verificationToken must not be empty").optional(),
    /** Events & Callbacks → Encryption Strategy → Encrypt Key: deliveries are then encrypted and signed. */
    encryptKey: z.string().min(1, "encryptKey must not be empty").optional(),
    /** How long a user's name, a chat's title and members and a replied-to message are remembered. */
    lookupTtlMs: z.number().int().min(0).max(86_400_000).default(600_000),
    /**
     * The ffmpeg command (looked up on PATH) that turns a voice note Feishu cannot play into Opus
     * and takes a video's cover; `false` never runs it (such voice notes go out as files).
     */
    ffmpeg: z
      .union([z.string().min(1), z.literal(false)], {
        error: "ffmpeg must be a command (a path or a name on PATH) or false",
      })
      .default("ffmpeg"),
    // retries, maxRetryAfterMs, timeoutMs; reconnectMinMs, reconnectMaxMs: the kit's keys and defaults.
    ...retryOptionsShape,
    ...reconnectOptionsShape,
  })
  .strict()
  .superRefine((config, ctx) => {
    if (config.mode === "webhook" && config.verificationToken === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["verificationToken"],
        message:
          "verificationToken is required in webhook mode (Events & Callbacks → Encryption Strategy → Verification Token)",
      });
    }
    if (config.reconnectMaxMs < config.reconnectMinMs) {
      ctx.addIssue({ code: "custom", path: ["reconnectMaxMs"], message: "reconnectMaxMs must be ≥ reconnectMinMs" });
    }
  });

/** The validated config a Feishu instance runs with (defaults filled in). */
export type FeishuConfig = z.output<typeof feishuConfigSchema>;

/** The config keys whose values are secrets: never logged, shown or reported. */
export const FEISHU_SECRET_KEYS = ["appSecret", "verificationToken", "encryptKey"] as const;

/** The Open API base URL a config points at, without a trailing slash. */
export function openApiBase(config: Pick<FeishuConfig, "domain">): string {
  const named = FEISHU_DOMAINS[config.domain as keyof typeof FEISHU_DOMAINS];
  return (named ?? config.domain).replace(/\/+$/u, "");
}
