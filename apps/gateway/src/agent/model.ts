import { ChorusError } from "@chorus/core";
import type { ModelConfig, RemoteModelConfig } from "../config/index.js";
import { fetchWithTimeout, type ModelFetch } from "./deadline-fetch.js";
import { DemoLanguageModel } from "./demo-model.js";
import type { LanguageModelV3 } from "./types.js";

/** Options of `createLanguageModel` beyond the config. */
export interface CreateLanguageModelOptions {
  /** The fetch underneath the timeout (tests, proxies); default the global fetch. */
  fetch?: ModelFetch;
}

/** The models made so far, by config (see `createLanguageModel`). */
const made = new WeakMap<ModelConfig, Promise<LanguageModelV3>>();

/**
 * The language model (the AI SDK's specification v3) a model config names. Each provider's module is imported only when an
 * agent uses it, so the gateway's cold start does not pay for providers nobody configured.
 * Without a fetch of the caller's, one model per config: the provider's module is imported and its
 * model made once, not on every turn (a failure to make one is not kept).
 */
export function createLanguageModel(
  config: ModelConfig,
  options: CreateLanguageModelOptions = {},
): Promise<LanguageModelV3> {
  if (options.fetch) return makeLanguageModel(config, options.fetch);
  let model = made.get(config);
  if (!model) {
    model = makeLanguageModel(config, (input, init) => globalThis.fetch(input, init));
    made.set(config, model);
    model.catch(() => made.delete(config));
  }
  return model;
}

async function makeLanguageModel(config: ModelConfig, base: ModelFetch): Promise<LanguageModelV3> {
  if (config.provider === "demo") return new DemoLanguageModel();
  if (config.provider === "external")
    throw new ChorusError("E_INVALID_INPUT", "an outside agent (provider external) has no model the gateway calls");
  const fetch = fetchWithTimeout(config.timeoutMs, base);
  const baseURL = config.baseURL.replace(/\/+$/, "");
  const apiKey = "apiKey" in config && config.apiKey !== undefined ? { apiKey: config.apiKey } : {};
  switch (config.provider) {
    case "openai-compatible": {
      const { createOpenAICompatible } = await import("@ai-sdk/openai-compatible");
      return createOpenAICompatible({ name: config.name, baseURL, ...apiKey, includeUsage: true, fetch }).chatModel(
        config.model,
      );
    }
    case "openai": {
      const { createOpenAI } = await import("@ai-sdk/openai");
      // Chat Completions: the API every OpenAI model and the `message` tool's function calling speak.
      return createOpenAI({ baseURL, ...apiKey, fetch }).chat(config.model);
    }
    case "anthropic": {
      const { createAnthropic } = await import("@ai-sdk/anthropic");
      return createAnthropic({ baseURL, ...apiKey, fetch })(config.model);
    }
    case "google": {
      const { createGoogleGenerativeAI } = await import("@ai-sdk/google");
      return createGoogleGenerativeAI({ baseURL, ...apiKey, fetch })(config.model);
    }
    case "ollama": {
      const { createOllama } = await import("ollama-ai-provider-v2");
      return createOllama({ baseURL, fetch })(config.model) as LanguageModelV3;
    }
  }
}

/** The model's name as logs and `/status` show it: `anthropic/claude-…`. */
export function modelLabel(config: RemoteModelConfig): string {
  return `${config.provider === "openai-compatible" ? config.name : config.provider}/${config.model}`;
}
