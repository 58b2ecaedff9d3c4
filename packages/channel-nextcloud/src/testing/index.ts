/**
 * The fake Nextcloud Talk, exported on `@chorus/channel-nextcloud/testing` so the gateway's
 * end-to-end tests and other authors can run against the same platform this package's tests use.
 */

export { type DeliverOptions, type Delivery, TALK_HOOK_TIMEOUT_MS, talkRandom } from "./fake-delivery.js";
export {
  collectionOf,
  createHook,
  likeHook,
  membershipHook,
  noteOf,
  PARTICIPANT_USER,
  person,
  personFromAttendee,
  undoHook,
  unreadableHook,
} from "./fake-hooks.js";
export { type FakeBot, type FakeMessage, type FakeRoom, FakeTalkState, type FakeUser } from "./fake-state.js";
export { createFakeTalk, type FakeTalk, type FakeTalkOptions, type UserMessageInput } from "./fake-talk.js";
export { phpArray, phpJsonEncode } from "./php-json.js";
