// The running channel accounts: the registry (by `AccountKey`), each account's supervisor (restarts, containment), and the `message` tool's executor over them.
export { type AccountKey, accountKey } from "./account-key.js";
export { DEFAULT_RESTART_BACKOFF, restartBackoffFromEnv } from "./backoff.js";
export { type ContainedChannel, containChannelErrors, runAsChannel, runAsGateway } from "./containment.js";
export { type MediaCall, MediaSends, type MediaSent } from "./media-send.js";
export type { MessageCallOptions } from "./message-tool.js";
export { type MessageToolCalls, MessageToolExecutor, type TurnScope } from "./message-tool.js";
export { type ChannelEntry, ChannelRegistry } from "./registry.js";
export { ChannelSupervisor, type SupervisedStatus, type SupervisorOptions } from "./supervisor.js";
export { type ChannelState, ChannelWatch } from "./watch.js";
