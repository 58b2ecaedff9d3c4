export { type RunningChannel, type StartChannelOptions, startChannel, validatePluginConfig } from "./context.js";
export { CONTRACT_CASES, type ContractCase } from "./contract/cases.js";
export { CONCURRENCY_CASE } from "./contract/concurrency-case.js";
export { EscapeWatch } from "./contract/escapes.js";
export { FAULT_CASES } from "./contract/fault-cases.js";
export { CaseHarness, type ChannelHarness } from "./contract/harness.js";
export { INBOUND_CASES } from "./contract/inbound-cases.js";
export { mediaCasesFor } from "./contract/media-cases.js";
export {
  type ContractSession,
  channelCasesFor,
  contractCasesFor,
  openContractSession,
  runChannelContract,
  runReactionContract,
} from "./contract/run.js";
export { SECRET_CASES } from "./contract/secret-cases.js";
export {
  type ChannelContractFixture,
  type ChannelContractOptions,
  type ContractCaseResult,
  type ContractEmoji,
  type ContractFixture,
  DEFAULT_CONTRACT_EMOJI,
  type InboundMediumSample,
  type MediaContractHooks,
  type PlatformMedium,
  type PlatformMessageMedia,
  type ReactionContractOptions,
} from "./contract/types.js";
export { ContractViolation } from "./contract/violation.js";
export * from "./fake-server/index.js";
export { type LogLevel, type LogRecord, LogRecorder } from "./log-recorder.js";
export {
  type DiscardingServer,
  type DiscardingServerOptions,
  startDiscardingServer,
} from "./media/discarding-server.js";
export { type MeteredBytes, meteredBytes } from "./media/metered-bytes.js";
export { SAMPLE_PDF_TEXT, type SampleMedium, sampleMedium } from "./media/samples.js";
export * from "./memory/index.js";
