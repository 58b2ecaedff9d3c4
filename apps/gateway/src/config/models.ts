import { z } from "@chorus/core";

/** Keys every hosted or local model shares. */
const modelShape = {
  model: z.string().min(1),
  timeoutMs: z.number().int().positive().default(60_000),
  maxRetries: z.number().int().min(0).max(10).default(2),
  /** Stream the answer (SSE or NDJSON) instead of one JSON answer. */
  stream: z.boolean().default(false),
  temperature: z.number().min(0).max(2).optional(),
  /** The model takes images: photos reach it as image input (default: on for openai, anthropic, google). */
  vision: z.boolean().optional(),
} as const;

const httpUrl = z.url({ protocol: /^https?$/ });

export const demoModelSchema = z.object({ provider: z.literal("demo") }).strict();

/** Any server that speaks OpenAI's chat completions (vLLM, LM Studio, OpenRouter, Ollama's `/v1`…). */
export const openAICompatibleModelSchema = z
  .object({
    provider: z.literal("openai-compatible"),
    baseURL: httpUrl,
    apiKey: z.string().optional(),
    /** Provider name shown in logs and transcripts. */
    name: z.string().min(1).default("openai-compatible"),
    ...modelShape,
  })
  .strict();

/** The provider's own API key variable, read when `apiKey` is not set (the AI SDK's convention). */
export const API_KEY_ENV = {
  openai: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
  google: "GOOGLE_GENERATIVE_AI_API_KEY",
} as const;

/** Where each provider's API lives unless `baseURL` says otherwise. */
export const DEFAULT_BASE_URL = {
  openai: "https://api.openai.com/v1",
  anthropic: "https://api.anthropic.com/v1",
  google: "https://generativelanguage.googleapis.com/v1beta",
  ollama: "http://127.0.0.1:11434/api",
} as const;

const hosted = <P extends keyof typeof API_KEY_ENV>(provider: P) =>
  z
    .object({
      provider: z.literal(provider),
      baseURL: httpUrl.default(DEFAULT_BASE_URL[provider]),
      /** Default: the `${API_KEY_ENV[provider]}` environment variable. */
      apiKey: z.string().min(1).optional(),
      ...modelShape,
    })
    .strict();

export const openAIModelSchema = hosted("openai");
export const anthropicModelSchema = hosted("anthropic");
export const googleModelSchema = hosted("google");

/** A local Ollama through its native API (`/api/chat`). */
export const ollamaModelSchema = z
  .object({
    provider: z.literal("ollama"),
    baseURL: httpUrl.default(DEFAULT_BASE_URL.ollama),
    ...modelShape,
  })
  .strict();

/**
 * An outside agent answers (through `POST /v1/tools/message` or the MCP tools): the gateway runs
 * the group rules, records the session, shows typing and the ack, and calls no model. A turn ends
 * at the agent's first send to the conversation, or after `timeoutMs` with no answer.
 */
export const externalModelSchema = z
  .object({
    provider: z.literal("external"),
    /** How long a turn waits for the outside agent's answer. */
    timeoutMs: z.number().int().min(1_000).max(86_400_000).default(300_000),
  })
  .strict();

export const modelSchema = z.discriminatedUnion("provider", [
  demoModelSchema,
  openAICompatibleModelSchema,
  openAIModelSchema,
  anthropicModelSchema,
  googleModelSchema,
  ollamaModelSchema,
  externalModelSchema,
]);
export type ModelConfig = z.output<typeof modelSchema>;
/** A model that is reached over HTTP (every provider but the offline demo). */
export type RemoteModelConfig = Exclude<ModelConfig, { provider: "demo" | "external" }>;
/** A model the gateway itself calls (all but an outside agent). */
export type CalledModelConfig = Exclude<ModelConfig, { provider: "external" }>;
export type ModelProvider = ModelConfig["provider"];

/** Providers whose models take images unless `vision: false` says otherwise (DESIGN §2.6). */
const SEES_BY_DEFAULT: ReadonlySet<ModelProvider> = new Set(["openai", "anthropic", "google"]);

/**
 * Whether photos reach this model as image input: its `vision`, else on for openai, anthropic and
 * google, off for openai-compatible and ollama (many of their models take no images); never for the
 * offline demo or an outside agent, which get a line naming the image.
 */
export function acceptsImages(model: ModelConfig): boolean {
  if (model.provider === "demo" || model.provider === "external") return false;
  return model.vision ?? SEES_BY_DEFAULT.has(model.provider);
}

/** How long a transcription may take unless `timeoutMs` says otherwise. */
const transcriptionTimeout = z.number().int().positive().max(600_000).default(60_000);

/**
 * `agents.defaults.transcription`: voice notes and audio become text through an OpenAI-compatible
 * `POST <baseURL>/audio/transcriptions` (OpenAI, Groq, a local whisper server), keys spelled as the
 * model settings spell them. `openai` reads `OPENAI_API_KEY` when `apiKey` is not set.
 */
export const transcriptionSchema = z.discriminatedUnion("provider", [
  z
    .object({
      provider: z.literal("openai"),
      baseURL: httpUrl.default(DEFAULT_BASE_URL.openai),
      apiKey: z.string().min(1).optional(),
      /** `whisper-1`, `gpt-4o-transcribe`, `gpt-4o-mini-transcribe`. */
      model: z.string().min(1),
      timeoutMs: transcriptionTimeout,
    })
    .strict(),
  z
    .object({
      provider: z.literal("openai-compatible"),
      baseURL: httpUrl,
      apiKey: z.string().optional(),
      model: z.string().min(1),
      timeoutMs: transcriptionTimeout,
    })
    .strict(),
]);
export type TranscriptionConfig = z.output<typeof transcriptionSchema>;
