/**
 * The fake BlueBubbles server, exported on `@chorus/channel-imessage/testing` so the gateway's
 * end-to-end tests and other authors can run against the same platform this package's tests use.
 */

export { CONVERTED_JPEG, CONVERTED_M4A } from "./converted-samples.js";
export {
  createFakeBlueBubbles,
  FAKE_MAX_FILE_BYTES,
  type FakeBlueBubbles,
  type FakeBlueBubblesOptions,
  type FakeHook,
} from "./fake-bluebubbles.js";
export {
  addUserFiles,
  addUserSticker,
  type FakeFileInput,
  type FakeShownFile,
  shownFile,
  shownMessage,
} from "./fake-media.js";
export { type FakeMediaRoutesOptions, installMediaRoutes } from "./fake-media-routes.js";
export {
  DIRECT_STYLE,
  type FakeAttachment,
  FakeBlueBubblesState,
  type FakeChat,
  type FakeMessage,
  type FakeWebhook,
  GROUP_STYLE,
  ME,
  POSSIBLE_REACTIONS,
} from "./fake-state.js";
export { type SerializeOptions, serializeAttachment, serializeMessage, tapbackText, unhandled } from "./fake-wire.js";
