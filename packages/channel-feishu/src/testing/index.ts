/**
 * The fake Feishu / Lark, exported on `@chorus/channel-feishu/testing` so that end-to-end tests
 * and other authors run against the same platform this package's tests use.
 */
export type { FakeFeishuEvents, FeishuEnvelope } from "./fake-events.js";
export { createFakeFeishu, type FakeFeishu, type FakeFeishuOptions } from "./fake-feishu.js";
export {
  type ClientConfig,
  FakeLongConnection,
  FEISHU_CLIENT_CONFIG,
  type FrameAck,
} from "./fake-long-connection.js";
export { FakeFeishuMedia, type UserMediumInput } from "./fake-media.js";
export type { FakeMediaLimits } from "./fake-media-routes.js";
export { type FakeFileType, type FakeResource, FakeResources } from "./fake-resources.js";
export { type FakeChat, FakeFeishuState, type FakeMessage, type FakeUser } from "./fake-state.js";
export { FakeTokens } from "./fake-tokens.js";
export {
  encryptEvent,
  FakeFeishuWebhooks,
  FEISHU_REDELIVERY,
  type FeishuRedelivery,
  type PostedWebhook,
  type WebhookPostOptions,
} from "./fake-webhooks.js";
export { decodeFrame, encodeFrame, FrameMethod, type LarkFrame } from "./frames.js";
export type { MentionTarget, UserMessageInput } from "./user-messages.js";
