import { retryOptionsShape } from "@chorus/channel-kit";
import { z } from "@chorus/core";

/** `channels.nextcloud.files`: the Nextcloud user the bot uploads and downloads files as. */
export const nextcloudFilesSchema = z
  .object({
    /** The user's login name (its id, as in `/remote.php/dav/files/<user>`); it must be in each conversation. */
    user: z
      .string({ error: "files.user is required: the Nextcloud user the bot's files belong to" })
      .min(1, "files.user is required: the Nextcloud user the bot's files belong to")
      .refine((user) => !/[/\\]/u.test(user), "files.user must be a login name, not a path"),
    /** An app password of that user (Settings → Security → Devices & sessions), never the login password. */
    appPassword: z
      .string({ error: "files.appPassword is required: an app password of files.user" })
      .min(1, "files.appPassword is required: an app password of files.user"),
    /** The folder of the user's files uploads go to (Talk's own attachments folder by default). */
    folder: z
      .string()
      .min(1)
      .refine(
        (folder) => !folder.split("/").some((part) => part === "." || part === ".."),
        "files.folder must not contain . or .. segments",
      )
      .default("Talk"),
    /**
     * The server's upload limit in bytes (512 MB by default: Nextcloud admin manual, "Uploading big
     * files"); a medium over it is refused before anything is sent.
     */
    maxUploadBytes: z
      .number()
      .int()
      .min(1)
      .max(Number.MAX_SAFE_INTEGER)
      .default(512 * 1024 * 1024),
  })
  .strict();

/** The validated `files` block. */
export type NextcloudFilesConfig = z.output<typeof nextcloudFilesSchema>;

/**
 * `channels.nextcloud` (or one bot under `channels.nextcloud.accounts.<name>`). The gateway picks
 * the account and validates its block with this schema, so nothing here knows about accounts.
 */
export const nextcloudConfigSchema = z
  .object({
    /** The Nextcloud server (`https://cloud.example.com`); bot calls go to its OCS API. */
    baseUrl: z.url({
      protocol: /^https?$/,
      error: "baseUrl is required: the http(s) URL of your Nextcloud server, e.g. https://cloud.example.com",
    }),
    /** The shared secret given to `occ talk:bot:install`; Talk requires 40 to 128 characters. */
    secret: z
      .string({ error: "secret is required (the shared secret you passed to occ talk:bot:install)" })
      .min(40, "secret is too short: Nextcloud Talk bot secrets are 40 to 128 characters")
      .max(128, "secret is too long: Nextcloud Talk bot secrets are 40 to 128 characters"),
    /** The bot's display name as installed; a plain-text `@<botName>` then counts as a mention of the bot. */
    botName: z.string().min(1).optional(),
    /**
     * The URL registered with `occ talk:bot:install`, when it differs from the gateway's own
     * public URL (a reverse proxy). Talk derives the bot's actor id from it.
     */
    webhookUrl: z.url({ protocol: /^https?$/, error: "webhookUrl must be an http(s) URL" }).optional(),
    /** Conversation tokens to treat as one-to-one even when the payload does not show it. */
    directConversations: z.array(z.string().min(1)).default([]),
    /** Longest message Talk accepts (`spreed → config → chat → max-length`); longer text is split. */
    maxTextLength: z.number().int().min(100).max(1_000_000).default(32_000),
    /**
     * A Nextcloud account for the bot's files (the bot API has none): inbound files are downloaded
     * and outbound media uploaded and shared into the conversation with it. Without it media go out
     * as links and inbound files cannot be downloaded.
     */
    files: nextcloudFilesSchema.optional(),
    ...retryOptionsShape,
  })
  .strict();

/** The validated config a Nextcloud Talk instance runs with (defaults filled in). */
export type NextcloudConfig = z.output<typeof nextcloudConfigSchema>;

/** Config keys whose values are secrets: never shown, and removed from every log line, error and status. */
export const NEXTCLOUD_SECRET_KEYS = ["secret", "files.appPassword"] as const;
