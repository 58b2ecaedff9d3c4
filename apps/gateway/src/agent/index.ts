// The model side of a turn: providers and their packages, the offline demo model, the turn loop with the `message` tool, system prompt, retries and failures.

export { fetchWithTimeout, type ModelFetch } from "./deadline-fetch.js";
export { DemoLanguageModel } from "./demo-model.js";
export { DEMO_REACTION, type DemoStep, demoText, planDemoStep, readGroupBatch } from "./demo-reply.js";
export { AgentError, type AgentErrorContext, describeModel, toAgentError } from "./errors.js";
export { type ModelFailure, ModelFailures, withoutModelAddress } from "./failures.js";
export { runMessageTool, runToolCall, toModelTool, toolFailure } from "./message-tool.js";
export { type CreateLanguageModelOptions, createLanguageModel, modelLabel } from "./model.js";
export {
  assertProviderInstalled,
  findProviderPackage,
  isPackagedProvider,
  ModelProviderMissingError,
  type PackagedProvider,
  PROVIDER_PACKAGES,
  type ProviderPackage,
} from "./provider-package.js";
export { runTurn } from "./run-turn.js";
export { buildSystemPrompt, reactionSection, type SystemPromptInput } from "./system-prompt.js";
export type {
  ChatMessage,
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  MessageToolBinding,
  TurnInput,
  TurnResult,
  TurnToolCall,
} from "./types.js";
