// Small helpers every folder may use: the home's paths, the logger, owner-only files, the package directory, `NO_REPLY`, untrusted-text escaping, a settled promise.
export { copyWith } from "./copy-with.js";
export {
  agentsDir,
  type ChorusPaths,
  channelStateDir,
  channelStoreDir,
  chorusPaths,
  resolveHome,
  sessionsDir,
} from "./home.js";
export { createLogger } from "./log.js";
export { isSilent, NO_REPLY } from "./no-reply.js";
export { makePrivateDir, makePrivateFile, restrictToOwner, restrictTreeToOwner } from "./owner-only.js";
export { GATEWAY_PACKAGE_DIR } from "./package-dir.js";
export { requirePackage } from "./require-package.js";
export { SETTLED } from "./settled.js";
export { INVISIBLE_CHARS, oneLine, stripInvisible } from "./untrusted.js";
