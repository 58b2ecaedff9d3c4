// What tests and benchmarks outside src/ use of the gateway's internals: one door, through each folder's barrel.
export {
  checkAccess,
  describeSender,
  EXPIRED_KEPT_MS,
  emptyPairingFile,
  expired,
  newCode,
  normalizePairingCode,
  PAIRING_CODE_TTL_MS,
  type PairingEntry,
  type PairingFile,
  type PairingList,
  type PairingSender,
  PairingStore,
  type PendingPairing,
  pairingFilePath,
  pairingFileSchema,
} from "../access/index.js";
export { DemoLanguageModel, type LanguageModelV3CallOptions, ModelFailures } from "../agent/index.js";
export {
  accountKey,
  type ChannelEntry,
  ChannelRegistry,
  ChannelSupervisor,
  type MessageToolCalls,
  MessageToolExecutor,
  runAsGateway,
} from "../channels/index.js";
export { validateInstallation } from "../checks/index.js";
export { type ChannelSettings, defaultMentionPatterns, parseConfig, resolveAgents } from "../config/index.js";
export {
  CONTEXT_MARKER,
  CURRENT_MARKER,
  compileMentionPatterns,
  detectMention,
  formatBatch,
  GroupContextStore,
  pendingOf,
  resolveHistoryLimit,
} from "../groups/index.js";
export { DEFAULT_HEARTBEAT_PROMPT } from "../heartbeat/index.js";
export { Committer, createDeliver, createPipeline, type Deliver, InboxWriter } from "../pipeline/index.js";
export { SystemEvents } from "../reaction-notifications/index.js";
export { collectYoungGenerationWhenFull } from "../runtime/index.js";
export {
  assertSessionEntry,
  OpenedSessions,
  parseTranscriptLine,
  readSessionsFile,
  rowOf,
  SESSIONS_FILE_VERSION,
  type SessionEntry,
  type SessionSettings,
  SessionStore,
  type SessionsFile,
  serializeEntries,
  type TranscriptEntry,
  TranscriptStore,
  TurnQueue,
  withSettings,
} from "../sessions/index.js";
export { MessageIndex, StateStore } from "../state/index.js";
export { channelStoreDir, chorusPaths, createLogger, sessionsDir } from "../support/index.js";
export { ExternalTurns, readHistory, recordTurn, withoutModelAddress } from "../turn/index.js";
