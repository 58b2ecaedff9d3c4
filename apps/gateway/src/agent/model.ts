import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { ModelConfig } from "../config/schema.js";
import { DemoLanguageModel } from "./demo-model.js";
import type { LanguageModelV3 } from "./types.js";

/** A `fetch` the model provider uses for its HTTP calls. */
export type ModelFetch = typeof globalThis.fetch;

/** Options of `createLanguageModel` beyond the config. */
export interface CreateLanguageModelOptions {
  /** The fetch underneath the timeout (tests, proxies); default the global fetch. */
  fetch?: ModelFetch;
}

/** The AI SDK language model a model config names: an OpenAI-compatible server or the offline demo. */
export function createLanguageModel(config: ModelConfig, options: CreateLanguageModelOptions = {}): LanguageModelV3 {
  if (config.provider === "demo") return new DemoLanguageModel();
  const provider = createOpenAICompatible({
    name: config.name,
    baseURL: config.baseURL.replace(/\/+$/, ""),
    ...(config.apiKey === undefined ? {} : { apiKey: config.apiKey }),
    includeUsage: true,
    fetch: fetchWithTimeout(config.timeoutMs, options.fetch ?? globalThis.fetch),
  });
  return provider.chatModel(config.model);
}

/**
 * A fetch whose every request (answer and body) is aborted after `timeoutMs`, with a `TimeoutError`;
 * the caller's signal still aborts it earlier.
 */
export function fetchWithTimeout(timeoutMs: number, base: ModelFetch = globalThis.fetch): ModelFetch {
  return (input, init) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    return base(input, { ...init, signal });
  };
}
