import { z } from "@chorus/core";
import { durationSchema } from "./duration.js";

const MiB = 1024 * 1024;

/**
 * `media` (DESIGN §2.6): the store's limit per item and retention, where `path` sources live, and
 * which addresses a `url` source may reach besides public ones.
 */
export const mediaSchema = z
  .object({
    /** The directory `path` sources are read from; default `<home>/media/outbox`. */
    dir: z.string().min(1).optional(),
    /** Bytes of one medium at most, in or out. */
    maxBytes: z
      .number()
      .int()
      .min(1024)
      .max(1024 * MiB)
      .default(25 * MiB),
    /** How long a medium is kept (unless a reply not yet sent needs it). */
    retention: durationSchema.default(7 * 86_400_000),
    /** How long a signed media link works (links under `gateway.publicUrl`: link-only channels, `POST /v1/media`). */
    linkLifetime: durationSchema.pipe(z.number().min(1000, "expected at least 1s")).default(86_400_000),
    /** `url` sources may reach loopback, private and link-local addresses. */
    allowPrivateUrls: z.boolean().default(false),
    /** `host:port` pairs a `url` source may reach whatever their address (`media.internal:9000`). */
    allowHosts: z
      .array(z.string().regex(/^(\[[0-9A-Fa-f:.]+\]|[^\s:/[\]@]+):\d{1,5}$/, 'expected "host:port"'))
      .default([]),
    /** Characters of a document's text the agent sees at most (PDFs, text files). */
    maxExtractChars: z.number().int().min(0).max(1_000_000).default(20_000),
  })
  .strict();
export type MediaConfig = z.output<typeof mediaSchema>;

/** `media` when the config has none. */
export const defaultMedia = (): MediaConfig => ({
  maxBytes: 25 * MiB,
  retention: 7 * 86_400_000,
  linkLifetime: 86_400_000,
  allowPrivateUrls: false,
  allowHosts: [],
  maxExtractChars: 20_000,
});
