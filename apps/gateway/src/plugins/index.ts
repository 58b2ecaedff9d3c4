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
export {
  type InstalledPlugin,
  type InstallOptions,
  installPlugin,
  listInstalled,
  listInstalledPackages,
  removePlugin,
} from "./install.js";
export { findChannel, loadChannelPlugin } from "./load.js";
export type { NpmOptions } from "./npm.js";
