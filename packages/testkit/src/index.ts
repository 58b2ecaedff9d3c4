export { type RunningChannel, type StartChannelOptions, startChannel, validatePluginConfig } from "./context.js";
export { CONTRACT_CASES, type ContractCase } from "./contract/cases.js";
export { CaseHarness } from "./contract/harness.js";
export { type ContractSession, contractCasesFor, openContractSession, runReactionContract } from "./contract/run.js";
export {
  type ContractCaseResult,
  type ContractEmoji,
  type ContractFixture,
  DEFAULT_CONTRACT_EMOJI,
  type ReactionContractOptions,
} from "./contract/types.js";
export { ContractViolation } from "./contract/violation.js";
export * from "./fake-server/index.js";
export * from "./memory/index.js";
