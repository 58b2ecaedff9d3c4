/**
 * The fake Zalo, exported on `@chorus/channel-zalouser/testing` so the gateway's end-to-end tests
 * and others run against the same platform this package's tests use.
 */
export { FAKE_MAX_TEXT, ICON_TYPES } from "./api-routes.js";
export { createFakeZalo, type FakeZalo, type FakeZaloOptions, type PersonMessage } from "./fake-zalo.js";
export { FakeListener } from "./listener.js";
export { type FakeQr, FakeQrLogin } from "./qr-routes.js";
export { LISTENER_URLS, serviceMap } from "./session-routes.js";
export type { FakeGroup, FakeMessage, FakeReaction, FakeSession, FakeUser } from "./state.js";
export { FakeZaloState } from "./state.js";
