// What tests and benchmarks use: fake model providers, a throwaway PostgreSQL, state helpers, and (internals.ts) the one door to the gateway's internals.

export { launchChromium } from "./browser.js";
export { fullCapabilities } from "./channel-capabilities.js";
export { useCountedTestState } from "./counted-state.js";
export { anthropicWire, createFakeAnthropic } from "./fake-anthropic.js";
export { createFakeGoogle, googleWire } from "./fake-google.js";
export {
  anthropicImages,
  decodeBase64,
  type FakeImage,
  googleImages,
  type ImagesRead,
  ollamaImages,
  openAIImages,
  sniffImage,
} from "./fake-images.js";
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
export {
  createFakeTranscription,
  type FakeTranscription,
  type TranscriptionReply,
  type TranscriptionUpload,
} from "./fake-transcription.js";
export { forceGc, gcEveryNodeArgs } from "./force-gc.js";
export * from "./internals.js";
export { fakeModelConfig, type OpenAICompatibleModelConfig } from "./model-config.js";
export { freshPostgresDatabase } from "./postgres-database.js";
export { startTestPostgres, type TestPostgres } from "./postgres-server.js";
export { installGatewayLayout } from "./provider-install.js";
export { leakedForms, secretForms } from "./secret-forms.js";
export { openTestState, type TestState } from "./state.js";
