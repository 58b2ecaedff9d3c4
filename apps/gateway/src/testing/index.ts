export {
  createFakeOpenAI,
  type FakeOpenAI,
  type FakeOpenAIOptions,
  type FakeReply,
} from "./fake-openai.js";
export type { FakeChatMessage, FakeChatRequest, FakeToolCall, FakeToolSpec } from "./fake-openai-wire.js";
export { lastUserText } from "./fake-openai-wire.js";
export { fakeModelConfig, type OpenAICompatibleModelConfig } from "./model-config.js";
