/**
 * The fake BlueBubbles server, exported on `@chorus/channel-imessage/testing` so the gateway's
 * end-to-end tests and other authors can run against the same platform this package's tests use.
 */

export {
  createFakeBlueBubbles,
  type FakeBlueBubbles,
  type FakeBlueBubblesOptions,
  type FakeHook,
} from "./fake-bluebubbles.js";
export {
  DIRECT_STYLE,
  FakeBlueBubblesState,
  type FakeChat,
  type FakeMessage,
  type FakeWebhook,
  GROUP_STYLE,
  ME,
  POSSIBLE_REACTIONS,
} from "./fake-state.js";
export { type SerializeOptions, serializeMessage, tapbackText } from "./fake-wire.js";
