/**
 * The fake Telegram Bot API, exported on `@chorus/channel-telegram/testing` so the gateway's
 * end-to-end tests and other authors can drive the real grammY client against it.
 */

export { type FakeFile, FakeFiles, type FakeFileType, type FakeLimits, TELEGRAM_LIMITS } from "./fake-files.js";
export { fakeMediaMethods } from "./fake-media-methods.js";
export { albumOf, type MediumFacts, mediumFields, platformMedium, platformMessageMedia } from "./fake-medium.js";
export {
  type FakeConnection,
  type FakeMethod,
  fakeMethods,
  isRefusal,
  type SendTarget,
  sendTarget,
} from "./fake-methods.js";
export { FormDataError, isMultipart, type Params, paramsOf, UploadedFile } from "./fake-requests.js";
export {
  type FakeChat,
  type FakeTelegramHooks,
  FakeTelegramState,
  mentionEntities,
  type UpdateBody,
  type UserMessageInput,
} from "./fake-state.js";
export { createFakeTelegram, type FakeTelegram, type FakeTelegramOptions } from "./fake-telegram.js";
export { FakeUpdateFeed } from "./fake-updates.js";
export { type UserMediumInput, userMediumFields } from "./fake-user-media.js";
export {
  type FakeWebhook,
  FakeWebhookSender,
  WEBHOOK_RETRY,
  type WebhookAttempt,
  type WebhookError,
  type WebhookRetryPolicy,
} from "./fake-webhook.js";
export { unreachableApiRoot } from "./loopback.js";
