// Channel plugins: discovery from manifests without importing code, loading and API checks, `chorus plugins add/remove` (first-party ones from the clone).
export { webchatBuiltin } from "./builtin.js";
export {
  type ChannelSource,
  type DiscoveredChannel,
  type DiscoverOptions,
  type Discovery,
  type DiscoveryProblem,
  discoverChannels,
} from "./discover.js";
export { incompatibleApiError, PluginLoadError, type PluginLoadReason } from "./errors.js";
export {
  closestChannelId,
  FIRST_PARTY_CHANNEL_IDS,
  firstPartyPackage,
  installCommandFor,
  isFirstPartyId,
} from "./first-party.js";
// Installing (npm, tarballs) is loaded by the `plugins` commands only: `import("../plugins/install.js")`.
export type { InstalledPlugin, InstallOptions } from "./install.js";
export { findChannel, loadChannelPlugin } from "./load.js";
export type { NpmOptions } from "./npm.js";
export { nodeModulesChain } from "./scan.js";
