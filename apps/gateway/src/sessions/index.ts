// Sessions: their keys, entries and settings, the per-session turn queue, transcripts, and the `sessions.json` mirror.
export { type AgentSessions, OpenedSessions } from "./agent-sessions.js";
export {
  assertSessionEntry,
  type ReadSessions,
  readSessionsFile,
  SESSIONS_FILE_VERSION,
  type SessionEntry,
  type SessionsFile,
  sessionEntryProblem,
} from "./entry.js";
export { type DmScope, type ParsedSessionKey, parseSessionKey, type SessionKeyInput, sessionKeyFor } from "./keys.js";
export { SessionsMirror } from "./mirror.js";
export { type DrainResult, TurnQueue, type TurnQueueOptions } from "./queue.js";
export {
  ACTIVATION_MODES,
  type ActivationMode,
  type SessionSettings,
  type SettingsChange,
  sessionSettingsSchema,
  THINK_LEVELS,
  type ThinkLevel,
  withSettings,
} from "./settings.js";
export { rowOf, type SessionInit, type SessionPatch, SessionStore, type SessionStoreOptions } from "./store.js";
export { type ReadTranscriptOptions, TranscriptStore } from "./transcript.js";
export {
  parseTranscriptLine,
  serializeEntries,
  type TranscriptEntry,
  transcriptEntryProblem,
} from "./transcript-entry.js";
