import { z } from "zod";

/** `channels.memory` (or an account under it): where the memory platform is and how to talk to it. */
export const memoryConfigSchema = z
  .object({
    baseUrl: z.url({ protocol: /^https?$/, error: "baseUrl must be an http(s) URL of the memory platform" }),
    token: z.string().min(1, "token is required"),
    /** How long one long poll for events waits on the platform. */
    pollWaitMs: z.number().int().min(0).max(60_000).default(25_000),
    /** Retries of a request after a 5xx, network error or short rate limit. */
    retries: z.number().int().min(0).max(10).default(2),
    /** Longest Retry-After the client waits out itself; longer ones fail with E_RATE_LIMITED. */
    maxRetryAfterMs: z.number().int().min(0).default(10_000),
  })
  .strict();

export type MemoryConfig = z.output<typeof memoryConfigSchema>;
