export { DEFAULT_RESTART_BACKOFF, restartBackoffFromEnv } from "./backoff.js";
export { type ContainedChannel, containChannelErrors, runAsChannel, runAsGateway } from "./containment.js";
export { type MessageToolCalls, MessageToolExecutor, type TurnScope } from "./message-tool.js";
export { type ChannelEntry, ChannelRegistry } from "./registry.js";
export { ChannelSupervisor, type SupervisedStatus, type SupervisorOptions } from "./supervisor.js";
