import { CHANNEL_ID_PATTERN, REACTION_LEVELS, type ReactionLevel, z } from "@chorus/core";
import { durationSchema } from "./duration.js";
import { defaultMedia, mediaSchema } from "./media.js";
import { modelSchema, transcriptionSchema } from "./models.js";

export { durationSchema } from "./duration.js";
export { defaultMedia, type MediaConfig, mediaSchema } from "./media.js";

export {
  API_KEY_ENV,
  acceptsImages,
  anthropicModelSchema,
  DEFAULT_BASE_URL,
  demoModelSchema,
  googleModelSchema,
  type ModelConfig,
  type ModelProvider,
  modelSchema,
  ollamaModelSchema,
  openAICompatibleModelSchema,
  openAIModelSchema,
  type RemoteModelConfig,
  type TranscriptionConfig,
  transcriptionSchema,
} from "./models.js";

/**
 * Where the gateway keeps its state (DESIGN §5): `sqlite` (default, `<home>/chorus.db`) or
 * `postgres` (`url`, its password a secret: never shown), which several gateways can share.
 */
export const stateSchema = z.discriminatedUnion("backend", [
  z
    .object({
      backend: z.literal("sqlite"),
      /** The database file; default `<home>/chorus.db`. */
      file: z.string().min(1).optional(),
    })
    .strict(),
  z
    .object({
      backend: z.literal("postgres"),
      url: z.string().regex(/^postgres(ql)?:\/\//, "expected a postgres://user:password@host:port/database URL"),
      /** Connections this gateway opens at most. */
      poolSize: z.number().int().min(2).max(100).default(10),
      /** This gateway's name in leases and `chorus channels` (default: host name and process id). */
      gatewayId: z.string().min(1).max(200).optional(),
      /** How long a lease on a connection-holding account lasts without renewal. */
      leaseMs: z.number().int().min(2_000).max(60_000).default(10_000),
    })
    .strict(),
]);
export type StateSettings = z.output<typeof stateSchema>;

export const typingModeSchema = z.enum(["never", "instant", "thinking", "message"]);

export const agentSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, "agent ids are lower case letters, digits, - and _"),
    name: z.string().min(1).default("Chorus"),
    model: modelSchema.optional(),
    systemPrompt: z.string().optional(),
    groupChat: z
      .object({ mentionPatterns: z.array(z.string()).optional() })
      .strict()
      .optional(),
    /** The agent channels use unless they name one. The first agent when none is marked. */
    default: z.boolean().optional(),
  })
  .strict();
export type AgentConfig = z.output<typeof agentSchema>;

export const agentDefaultsSchema = z
  .object({
    model: modelSchema.optional(),
    systemPrompt: z.string().optional(),
    /** Model steps (tool round trips) in one turn. */
    maxSteps: z.number().int().min(1).max(50).default(8),
    /** Transcript messages sent to the model as history. */
    historyMessages: z.number().int().min(0).max(1000).default(40),
    /** Turns running at once across all sessions. */
    maxConcurrentTurns: z.number().int().min(1).max(256).default(4),
    typingMode: typingModeSchema.optional(),
    heartbeat: z.object({ every: durationSchema, prompt: z.string().optional() }).strict().optional(),
    /** Voice notes and audio as text (DESIGN §2.6); without it they reach the agent untranscribed. */
    transcription: transcriptionSchema.optional(),
  })
  .strict();

/** The emoji of each status reaction state (DESIGN §7). */
export const DEFAULT_STATUS_EMOJIS = {
  queued: "👀",
  thinking: "🤔",
  tool: "🛠️",
  done: "✅",
  error: "❌",
  stall: "⏳",
} as const;

const emojiSchema = z.string().min(1);

export const statusReactionsSchema = z
  .object({
    enabled: z.boolean().default(false),
    /** A state shorter than this never reaches the platform (done and error apply at once). */
    debounceMs: z.number().int().min(0).max(60_000).default(700),
    /** No progress for this long shows the stall emoji; 0 turns the hint off. */
    stallMs: z.number().int().min(0).max(3_600_000).default(30_000),
    emojis: z
      .object({
        queued: emojiSchema.default(DEFAULT_STATUS_EMOJIS.queued),
        thinking: emojiSchema.default(DEFAULT_STATUS_EMOJIS.thinking),
        tool: emojiSchema.default(DEFAULT_STATUS_EMOJIS.tool),
        done: emojiSchema.default(DEFAULT_STATUS_EMOJIS.done),
        error: emojiSchema.default(DEFAULT_STATUS_EMOJIS.error),
        stall: emojiSchema.default(DEFAULT_STATUS_EMOJIS.stall),
      })
      .strict()
      .default(() => ({ ...DEFAULT_STATUS_EMOJIS })),
  })
  .strict();
export type StatusReactionsConfig = z.output<typeof statusReactionsSchema>;

const defaultStatusReactions = (): StatusReactionsConfig => ({
  enabled: false,
  debounceMs: 700,
  stallMs: 30_000,
  emojis: { ...DEFAULT_STATUS_EMOJIS },
});

export const channelSettingsShape = {
  enabled: z.boolean().optional(),
  /** The agent that answers on this channel (default: the default agent). */
  agent: z.string().optional(),
  reactionLevel: z.enum(REACTION_LEVELS as [ReactionLevel, ...ReactionLevel[]]).optional(),
  dmPolicy: z.enum(["pairing", "allowlist", "open", "disabled"]).optional(),
  allowFrom: z.array(z.string().min(1)).optional(),
  groupPolicy: z.enum(["open", "disabled", "allowlist"]).optional(),
  groupAllowFrom: z.array(z.string().min(1)).optional(),
  groups: z
    .record(
      z.string().min(1),
      z.object({ requireMention: z.boolean().optional(), enabled: z.boolean().optional() }).strict(),
    )
    .optional(),
  historyLimit: z.number().int().min(0).optional(),
  reactionNotifications: z.enum(["off", "own", "all", "allowlist"]).optional(),
  reactionAllowlist: z.array(z.string().min(1)).optional(),
} as const;

/** The keys of a `channels.<id>` block (or account) that the gateway reads; the rest is the plugin's. */
export const GATEWAY_CHANNEL_KEYS = Object.keys(channelSettingsShape) as (keyof typeof channelSettingsShape)[];

export const channelSettingsSchema = z.object(channelSettingsShape).strict();
export type ChannelSettings = z.output<typeof channelSettingsSchema>;

export const gatewayConfigSchema = z
  .object({
    $schema: z.string().optional(),
    gateway: z
      .object({
        port: z.number().int().min(0).max(65_535).default(7800),
        bind: z.string().min(1).default("127.0.0.1"),
        auth: z
          .object({
            token: z.string().min(16, "must be at least 16 characters (generate one: openssl rand -hex 24)").optional(),
          })
          .strict()
          .default({}),
        /** The URL people and platforms reach the gateway at (webhooks); default from bind and port. */
        publicUrl: z.url({ protocol: /^https?$/ }).optional(),
        /** Origins of a deployment behind a proxy (`https://chat.example.com`): their names are served while bound to loopback. */
        allowedOrigins: z
          .array(
            z
              .url({ protocol: /^https?$/, error: "must be an origin such as https://chat.example.com" })
              .refine((value) => !URL.canParse(value) || new URL(value).origin === value.replace(/\/$/, ""), {
                error: "must be an origin (scheme, host and port, such as https://chat.example.com), without a path",
              }),
          )
          .default([]),
        maxBodyBytes: z
          .number()
          .int()
          .min(1024)
          .max(64 * 1024 * 1024)
          .default(1024 * 1024),
        shutdownTimeoutMs: z.number().int().min(0).max(600_000).default(10_000),
        /** `GET /metrics`: `public: true` serves it without the bearer token (a scraper on a private network). */
        metrics: z
          .object({ public: z.boolean().default(false) })
          .strict()
          .optional(),
      })
      .strict()
      .default({
        port: 7800,
        bind: "127.0.0.1",
        auth: {},
        allowedOrigins: [],
        maxBodyBytes: 1024 * 1024,
        shutdownTimeoutMs: 10_000,
      }),
    agents: z
      .object({
        defaults: agentDefaultsSchema.default({ maxSteps: 8, historyMessages: 40, maxConcurrentTurns: 4 }),
        list: z
          .array(agentSchema)
          .min(1, "needs at least one agent (or leave agents.list out for the default agent)")
          .optional(),
      })
      .strict()
      .default({ defaults: { maxSteps: 8, historyMessages: 40, maxConcurrentTurns: 4 } }),
    messages: z
      .object({
        ackReaction: z.string().default("👀"),
        ackReactionScope: z.enum(["all", "direct", "group-all", "group-mentions", "off"]).default("group-mentions"),
        groupChat: z
          .object({
            mentionPatterns: z.array(z.string()).optional(),
            historyLimit: z.number().int().min(0).optional(),
          })
          .strict()
          .default({}),
        /** After the turn: `remove` the ack, or replace it with `doneReaction`. */
        ackReactionAfter: z.enum(["remove", "done"]).default("remove"),
        doneReaction: z.string().min(1).default(DEFAULT_STATUS_EMOJIS.done),
        statusReactions: statusReactionsSchema.default(defaultStatusReactions),
      })
      .strict()
      .default(() => ({
        ackReaction: "👀",
        ackReactionScope: "group-mentions" as const,
        groupChat: {},
        ackReactionAfter: "remove" as const,
        doneReaction: DEFAULT_STATUS_EMOJIS.done,
        statusReactions: defaultStatusReactions(),
      })),
    channels: z
      .record(
        z.string().regex(CHANNEL_ID_PATTERN, "channel ids are lower case letters, digits and -"),
        z.record(z.string(), z.unknown()),
      )
      .default({}),
    plugins: z
      .object({ load: z.array(z.string().min(1)).default([]) })
      .strict()
      .default({ load: [] }),
    session: z
      .object({
        /** `owner-main`: the owner's direct chats share the main session, everyone else has their own. */
        dmScope: z.enum(["owner-main", "main", "per-peer"]).default("owner-main"),
      })
      .strict()
      .default({ dmScope: "owner-main" }),
    state: stateSchema.default({ backend: "sqlite" }),
    media: mediaSchema.default(defaultMedia),
  })
  .strict();

export type GatewayConfig = z.output<typeof gatewayConfigSchema>;
/** `messages`: the ack, done and status reactions and group chat defaults. */
export type MessagesConfig = GatewayConfig["messages"];
export type GatewayConfigInput = z.input<typeof gatewayConfigSchema>;
