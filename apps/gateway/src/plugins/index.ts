export {
  type ChannelSource,
  type DiscoveredChannel,
  type DiscoverOptions,
  type Discovery,
  type DiscoveryProblem,
  defaultGatewayDir,
  discoverChannels,
} from "./discover.js";
export { incompatibleApiError, PluginLoadError, type PluginLoadReason } from "./errors.js";
export {
  type InstalledPlugin,
  type InstallOptions,
  installPlugin,
  listInstalled,
  listInstalledPackages,
  removePlugin,
} from "./install.js";
export { FIRST_PARTY_CHANNEL_IDS, findChannel, installSpecFor, loadChannelPlugin } from "./load.js";
export type { NpmOptions } from "./npm.js";
