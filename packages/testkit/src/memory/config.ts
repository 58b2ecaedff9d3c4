import { retryOptionsShape } from "@chorus/channel-kit";
import { z } from "@chorus/core";

/** `channels.memory` (or an account under it): where the memory platform is and how to talk to it. */
export const memoryConfigSchema = z
  .object({
    baseUrl: z.url({ protocol: /^https?$/, error: "baseUrl must be an http(s) URL of the memory platform" }),
    token: z.string().min(1, "token is required"),
    /** How long one long poll for events waits on the platform. */
    pollWaitMs: z.number().int().min(0).max(60_000).default(25_000),
    ...retryOptionsShape,
  })
  .strict();

export type MemoryConfig = z.output<typeof memoryConfigSchema>;
