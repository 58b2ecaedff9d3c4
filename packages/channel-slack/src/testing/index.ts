/**
 * The fake Slack, exported on `@chorus/channel-slack/testing` so that end-to-end tests and
 * others run against the same platform this package's tests use.
 */
export {
  FakeSlackHttpEvents,
  type PostedDelivery,
  type PostOptions,
  SLACK_REDELIVERY,
  type SlackRedelivery,
  type SlackRetryReason,
} from "./fake-events.js";
export type { FakeDownloadRedirect } from "./fake-file-hosts.js";
export type { FakeFileSettings } from "./fake-file-methods.js";
export { type FakeFile, type FakeShare, typeOf } from "./fake-files.js";
export { FAKE_BOT_SCOPES, type FakeMediaOptions, FakeSlackMedia, type UserFile } from "./fake-media.js";
export {
  createFakeSlack,
  FakeSlack,
  type FakeSlackOptions,
  type UserFilesMessage,
  type UserMessage,
} from "./fake-slack.js";
export { FakeSlackSocket, type SocketEnvelope } from "./fake-socket.js";
export {
  type FakeConversation,
  type FakeConversationType,
  type FakeMessage,
  type FakeReaction,
  FakeSlackState,
  type FakeUser,
  richTextBlocks,
} from "./fake-state.js";
export type { FakeBot } from "./fake-web-api.js";
