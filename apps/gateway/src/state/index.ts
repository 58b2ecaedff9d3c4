// The state layer, SQLite or PostgreSQL behind one interface: sessions, transcripts, the inbox and outbox, the message index, channels' stores, leases.
export { DbChannelStore, storeScope } from "./channel-store.js";
export type { BufferedRow, HandledOutcome, InboxInsert, InboxOutcome, InboxRow } from "./inbox-table.js";
export type { Lease } from "./leases-table.js";
export { MessageIndex, type MessageIndexOptions } from "./message-index.js";
export type { OutboxInsert, OutboxRow } from "./outbox-table.js";
export { type QueueStats, queueStats } from "./queue-stats.js";
export {
  type AttachmentView,
  type InboxMessage,
  type RecentMessage,
  recentMessages,
  type ShowAttachments,
  withoutSource,
} from "./recent-messages.js";
export { recordFate } from "./record-fate.js";
export type { MessageLookup } from "./refs-table.js";
export type { SessionRow } from "./sessions-table.js";
export { redactUrl } from "./sql/redact-url.js";
export type { Sql, SqlDb } from "./sql/sql.js";
export { classifyStateError, isStateUnavailable, StateUnavailableError } from "./sql/state-errors.js";
export { type OpenStateOptions, type StateConfig, StateStore, sqliteFile } from "./state-store.js";
export { repliesTo, type TracedInbound, type TracedReply, traceInbound } from "./trace.js";
export type { StoredTranscriptEntry } from "./transcripts-table.js";
