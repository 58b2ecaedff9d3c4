// `@chorus/gateway` as a library: start a gateway from a config, as `chorus start` does. Everything
// else is internal; tests and benchmarks reach it through `src/testing/`.
export {
  type GatewayConfig,
  type LoadedConfig,
  loadConfig,
  type ParseConfigOptions,
  parseConfig,
} from "./config/index.js";
export { type RunningGateway, type StartGatewayOptions, startGateway } from "./runtime/index.js";
export { type ChorusPaths, chorusPaths, createLogger, resolveHome } from "./support/index.js";
