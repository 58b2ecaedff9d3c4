// The config file: JSON5 loading, `${ENV}` substitution, the zod schema, cross-field checks, and error messages that name the key path.
export { agentFor, DEFAULT_AGENT, type ResolvedAgent, resolveAgents } from "./agents.js";
export { type ChannelAccountConfig, channelAccounts, groupConfigFor, validatePluginConfig } from "./channels.js";
export { type ConfigFinding, checkConfig, isLoopback } from "./check.js";
export { substituteEnv } from "./env.js";
export {
  ConfigError,
  type ConfigErrorOptions,
  type ConfigIssue,
  formatZodIssues,
  segmentsOf,
  type ZodIssueLike,
} from "./errors.js";
export { type LoadedConfig, loadConfig, type ParseConfigOptions, parseConfig, parseConfigText } from "./load.js";
export { isPathEntry, resolveLoadEntry } from "./load-entry.js";
export {
  checkMentionPatterns,
  compileMentionPattern,
  defaultMentionPatterns,
  mentionPatternsFor,
} from "./mention-patterns.js";
export { backtrackingRisk } from "./regex-safety.js";
export * from "./schema.js";
export { knownKeysAt } from "./schema-keys.js";
export { type ChannelSecrets, gatewaySecrets, modelSecrets } from "./secrets.js";
export { closestMatch, editDistance } from "./suggest.js";
export { describeValue, formatPath, isSecretKey, isSecretPath, type PathSegment, valueAt } from "./values.js";
