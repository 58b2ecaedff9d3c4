// What `chorus config check`, `doctor` and `start` verify before anything runs: the one validation, model and channel probes, webhook URLs.
export { probeChannels } from "./channel-probe.js";
export { probeModel } from "./model-probe.js";
export { agentModels, agentProviders } from "./providers.js";
export { type ConfigSource, type Validation, validateInstallation, validationError, variableOf } from "./validate.js";
