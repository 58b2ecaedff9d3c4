/**
 * The fake Zalo, exported on `@chorus/channel-zalouser/testing` so the gateway's end-to-end tests
 * and others run against the same platform this package's tests use.
 */
export { FAKE_MAX_TEXT, ICON_TYPES } from "./api-routes.js";
export { createFakeZalo, type FakeZalo, type FakeZaloOptions } from "./fake-zalo.js";
export { FakeListener } from "./listener.js";
export { FakeMediaStore, md5, type StoredFile, type StoredSticker } from "./media-store.js";
export { type PersonMedium, type PersonMessage, personMedium } from "./person-media.js";
export { type FakeQr, FakeQrLogin } from "./qr-routes.js";
export { LISTENER_URLS, serviceMap } from "./session-routes.js";
export type {
  FakeGroup,
  FakeLocation,
  FakeMedium,
  FakeMediumKind,
  FakeMessage,
  FakeReaction,
  FakeSession,
  FakeUser,
} from "./state.js";
export { FakeZaloState, shownKind } from "./state.js";
export { DEFAULT_SHAREFILE, type FakeShareFile } from "./upload-routes.js";
