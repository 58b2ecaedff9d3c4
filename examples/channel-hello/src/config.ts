import { retryOptionsShape } from "@chorus/channel-kit";
import { z } from "@chorus/core";

/** `channels.hello`: where the platform is, the bot's token, and the kit's retry keys. */
export const helloConfigSchema = z
  .object({
    baseUrl: z.url({ protocol: /^https?$/, error: "baseUrl must be an http(s) URL" }),
    token: z.string().min(1, "token is required"),
    /** How long one long poll for events waits on the platform. */
    pollWaitMs: z.number().int().min(0).max(60_000).default(25_000),
    ...retryOptionsShape,
  })
  .strict();

export type HelloConfig = z.output<typeof helloConfigSchema>;

/** The config keys whose values are secrets: never logged, shown or reported. */
export const HELLO_SECRET_KEYS = ["token"] as const;
