import type { ModelConfig } from "../config/index.js";
import type { FakeOpenAI } from "./fake-openai.js";

/** The openai-compatible part of `ModelConfig`. */
export type OpenAICompatibleModelConfig = Extract<ModelConfig, { provider: "openai-compatible" }>;

/** A complete openai-compatible model config pointing at a fake server (fast timeout, no retries). */
export function fakeModelConfig(
  fake: Pick<FakeOpenAI, "url">,
  overrides: Partial<Omit<OpenAICompatibleModelConfig, "provider">> = {},
): OpenAICompatibleModelConfig {
  return {
    provider: "openai-compatible",
    baseURL: fake.url,
    model: "fake-model",
    name: "fake-openai",
    timeoutMs: 5000,
    maxRetries: 0,
    stream: false,
    ...overrides,
  };
}
