/** Linking: the device's credentials in the auth directory, `chorus channels login`, and waiting for a link. */
export { authDirOf, isLinked, keyFileName, openAuthState, type WhatsAppAuthState } from "./auth-state.js";
export { LinkWatch, type LinkWatchOptions } from "./link-watch.js";
export { linkAccount } from "./login.js";
export { holdLoginLock, loginInProgress, mayCompleteLogin } from "./login-lock.js";
export { linkedDeviceSecrets } from "./secrets.js";
export { loggedOutDetail, loginCommand, notLinkedDetail, unlinkedError } from "./unlinked.js";
