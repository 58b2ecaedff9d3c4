/**
 * The fake Nextcloud Talk, exported on `@chorus/channel-nextcloud/testing` so the gateway's
 * end-to-end tests and other authors can run against the same platform this package's tests use.
 */

export { type DavCounters, registerDav } from "./fake-dav.js";
export { type DeliverOptions, type Delivery, TALK_HOOK_TIMEOUT_MS, talkRandom } from "./fake-delivery.js";
export { type FakeAccount, type FakeFile, FakeFiles, type FakeShare, mimetypeOf } from "./fake-files.js";
export {
  actorParameter,
  collectionOf,
  createHook,
  fileParameter,
  geoParameter,
  likeHook,
  membershipHook,
  noteOf,
  PARTICIPANT_USER,
  person,
  personFromAttendee,
  undoHook,
  unreadableHook,
} from "./fake-hooks.js";
export { registerShares } from "./fake-shares.js";
export { type FakeBot, type FakeMessage, type FakeRoom, FakeTalkState, type FakeUser } from "./fake-state.js";
export {
  createFakeTalk,
  type FakeTalk,
  type FakeTalkOptions,
  type FileShareInput,
  type UserMessageInput,
} from "./fake-talk.js";
export { phpArray, phpJsonEncode } from "./php-json.js";
