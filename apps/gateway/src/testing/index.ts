export { fullCapabilities } from "./channel-capabilities.js";
export { anthropicWire, createFakeAnthropic } from "./fake-anthropic.js";
export { createFakeGoogle, googleWire } from "./fake-google.js";
export { createFakeOllama, ollamaWire } from "./fake-ollama.js";
export {
  createFakeOpenAI,
  type FakeOpenAI,
  type FakeOpenAIOptions,
  type FakeReply,
} from "./fake-openai.js";
export type { FakeChatMessage, FakeChatRequest, FakeToolCall, FakeToolSpec } from "./fake-openai-wire.js";
export { lastUserText } from "./fake-openai-wire.js";
export { createFakeProvider, type FakeProvider, type FakeProviderReply, type ProviderWire } from "./fake-provider.js";
export { fakeModelConfig, type OpenAICompatibleModelConfig } from "./model-config.js";
