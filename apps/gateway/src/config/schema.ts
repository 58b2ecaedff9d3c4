import { CHANNEL_ID_PATTERN, REACTION_LEVELS, type ReactionLevel } from "@chorus/core";
import { z } from "zod";

/** `30s`, `5m`, `1h`, `2d` or milliseconds as a number → milliseconds. */
export const durationSchema = z.union([
  z.number().int().min(0),
  z
    .string()
    .regex(/^\d+(ms|s|m|h|d)$/, 'expected a duration like "30s", "5m", "1h"')
    .transform((text) => {
      const [, amount, unit] = /^(\d+)(ms|s|m|h|d)$/.exec(text) as RegExpExecArray;
      const factor = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[unit as "ms"];
      return Number(amount) * factor;
    }),
]);

export const demoModelSchema = z.object({ provider: z.literal("demo") }).strict();

export const openAICompatibleModelSchema = z
  .object({
    provider: z.literal("openai-compatible"),
    baseURL: z.url({ protocol: /^https?$/ }),
    apiKey: z.string().optional(),
    model: z.string().min(1),
    /** Provider name shown in logs and transcripts. */
    name: z.string().min(1).default("openai-compatible"),
    timeoutMs: z.number().int().positive().default(60_000),
    maxRetries: z.number().int().min(0).max(10).default(2),
    /** Stream chat completions (SSE) instead of one JSON answer. */
    stream: z.boolean().default(false),
    temperature: z.number().min(0).max(2).optional(),
  })
  .strict();

export const modelSchema = z.discriminatedUnion("provider", [demoModelSchema, openAICompatibleModelSchema]);
export type ModelConfig = z.output<typeof modelSchema>;

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
  })
  .strict();

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
        maxBodyBytes: z
          .number()
          .int()
          .min(1024)
          .max(64 * 1024 * 1024)
          .default(1024 * 1024),
        shutdownTimeoutMs: z.number().int().min(0).max(600_000).default(10_000),
      })
      .strict()
      .default({ port: 7800, bind: "127.0.0.1", auth: {}, maxBodyBytes: 1024 * 1024, shutdownTimeoutMs: 10_000 }),
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
        statusReactions: z
          .object({ enabled: z.boolean().default(false) })
          .strict()
          .default({ enabled: false }),
      })
      .strict()
      .default({
        ackReaction: "👀",
        ackReactionScope: "group-mentions",
        groupChat: {},
        statusReactions: { enabled: false },
      }),
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
      .object({ dmScope: z.enum(["main", "per-peer"]).default("main") })
      .strict()
      .default({ dmScope: "main" }),
  })
  .strict();

export type GatewayConfig = z.output<typeof gatewayConfigSchema>;
export type GatewayConfigInput = z.input<typeof gatewayConfigSchema>;
