/**
 * The fake Nextcloud Talk, exported on `@chorus/channel-nextcloud/testing` so the gateway's
 * end-to-end tests and other authors can run against the same platform this package's tests use.
 */

export { type FakeBot, type FakeMessage, type FakeRoom, FakeTalkState, type FakeUser } from "./fake-state.js";
export {
  createFakeTalk,
  type DeliverOptions,
  type FakeTalk,
  type FakeTalkOptions,
  type UserMessageInput,
} from "./fake-talk.js";
