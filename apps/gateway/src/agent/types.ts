import type { MessageToolDefinition, MessageToolInput } from "@chorus/core";
import type { ModelConfig } from "../config/index.js";
import type { MessageImage } from "../understand/index.js";

export type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3Message,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";

/** A message of the conversation so far, as the transcript keeps it. */
export interface ChatMessage {
  role: "user" | "assistant";
  content: string;
}

/** The `message` tool as one turn offers it: core's definition and what runs a validated call. */
export interface MessageToolBinding {
  definition: MessageToolDefinition;
  /** Runs a validated call; a thrown error goes back to the model as `{ ok: false, error }`. */
  execute(input: MessageToolInput): Promise<unknown>;
}

/** Everything one agent turn needs. */
export interface TurnInput {
  model: ModelConfig;
  system: string;
  history: ChatMessage[];
  /** The text the agent answers now. */
  user: string;
  /** The current message's photos, as image input after its text (history keeps their lines, not their bytes). */
  images?: readonly MessageImage[] | undefined;
  tool?: MessageToolBinding;
  /** Model steps (tool round trips) allowed in this turn. */
  maxSteps: number;
  /** Cancels the turn (shutdown, a newer message); the turn then fails with an `AgentError`. */
  signal?: AbortSignal;
}

/** One tool call of a turn and what it returned to the model. */
export interface TurnToolCall {
  id: string;
  name: string;
  input: unknown;
  output: unknown;
}

/** What a turn produced: the final text, the tool calls on the way, and accounting. */
export interface TurnResult {
  /** The text of the last step: the reply to send (may be empty). */
  text: string;
  toolCalls: TurnToolCall[];
  steps: number;
  /** `stop`, `tool-calls` (maxSteps reached while calling tools), `length`, … */
  finishReason: string;
  usage?: { inputTokens?: number; outputTokens?: number };
}
