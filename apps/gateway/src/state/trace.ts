import type { InboxOutcome } from "./inbox-table.js";
import type { SqlDb } from "./sql/sql.js";

/** One inbound event's row as `chorus trace` shows it: what came in, and what became of it. */
export interface TracedInbound {
  id: number;
  channel: string;
  account: string;
  eventId: string;
  messageId?: string;
  sessionKey: string | null;
  event: unknown;
  status: "received" | "done" | "buffered";
  receivedAt: number;
  doneAt?: number;
  /** The handle step's outcome; none while it is received, or for a row handled before outcomes were kept. */
  outcome?: InboxOutcome;
  /** Redeliveries of it the dedupe dropped, and when the last came. */
  redeliveries: number;
  redeliveredAt?: number;
}

/** A reply recorded in the outbox, and its delivery. */
export interface TracedReply {
  id: number;
  status: "pending" | "sent" | "failed";
  text: string;
  platformId?: string;
  /** The last failed attempt's error (code and message). */
  error?: string;
  attempts: number;
  createdAt: number;
  /** When it was sent, or failed for good. */
  sentAt?: number;
}

interface RawInbound {
  id: number;
  channel: string;
  account: string;
  event_id: string;
  message_id: string | null;
  session_key: string | null;
  event: string;
  status: TracedInbound["status"];
  received_at: number;
  done_at: number | null;
  outcome: string | null;
  outcome_detail: string | null;
  redeliveries: number | null;
  redelivered_at: number | null;
}

const INBOUND = `SELECT id, channel, account, event_id, message_id, session_key, event, status, received_at, done_at,
  outcome, outcome_detail, redeliveries, redelivered_at FROM inbox`;

/** How many rows one lookup returns at most (a message id is one row per account). */
const MAX_ROWS = 20;

/**
 * The inbox rows of a channel's message `id` (its platform message id, else its event id), of
 * one account or all, oldest first. Rows committed before message ids were kept are found by
 * their event's JSON.
 */
export async function traceInbound(db: SqlDb, channel: string, id: string, account?: string): Promise<TracedInbound[]> {
  const scope = account === undefined ? "" : " AND account = $3";
  const args = account === undefined ? [channel, id] : [channel, id, account];
  let rows = await db.all<RawInbound>(
    `${INBOUND} WHERE channel = $1 AND message_id = $2${scope} ORDER BY id LIMIT ${MAX_ROWS}`,
    args,
  );
  if (rows.length === 0)
    rows = await db.all<RawInbound>(
      `${INBOUND} WHERE channel = $1 AND event_id = $2${scope} ORDER BY id LIMIT ${MAX_ROWS}`,
      args,
    );
  if (rows.length === 0) {
    const older = await db.all<RawInbound>(
      `${INBOUND} WHERE channel = $1 AND message_id IS NULL AND event LIKE $2${scope} ORDER BY id LIMIT ${MAX_ROWS}`,
      [channel, `%"messageId":${JSON.stringify(id)}%`, ...(account === undefined ? [] : [account])],
    );
    rows = older.filter((row) => messageIdOf(JSON.parse(row.event)) === id);
  }
  return rows.map(toInbound);
}

/** The replies recorded for an inbound row, oldest first (rows recorded before replies named their message: by the message they answer). */
export async function repliesTo(
  db: SqlDb,
  row: Pick<TracedInbound, "id" | "sessionKey" | "receivedAt" | "messageId">,
): Promise<TracedReply[]> {
  const linked = await db.all<RawReply>(`${REPLIES} WHERE inbox_id = $1 ORDER BY id`, [row.id]);
  if (linked.length > 0 || row.sessionKey === null || row.messageId === undefined) return linked.map(toReply);
  const older = await db.all<RawReply & { scope: string }>(
    `${REPLIES.replace(" FROM", ", scope FROM")} WHERE session_key = $1 AND inbox_id IS NULL AND created_at >= $2 ORDER BY id LIMIT 200`,
    [row.sessionKey, row.receivedAt],
  );
  return older
    .filter(
      (reply) => (JSON.parse(reply.scope) as { message?: { messageId?: string } }).message?.messageId === row.messageId,
    )
    .map(toReply);
}

interface RawReply {
  id: number;
  status: TracedReply["status"];
  text: string;
  platform_id: string | null;
  error: string | null;
  attempts: number | null;
  created_at: number;
  sent_at: number | null;
}

const REPLIES = "SELECT id, status, text, platform_id, error, attempts, created_at, sent_at FROM outbox";

function toInbound(raw: RawInbound): TracedInbound {
  const event = JSON.parse(raw.event) as unknown;
  const messageId = raw.message_id ?? messageIdOf(event);
  const outcome =
    raw.outcome === null
      ? undefined
      : ({ outcome: raw.outcome, ...(raw.outcome_detail ? JSON.parse(raw.outcome_detail) : {}) } as InboxOutcome);
  return {
    id: Number(raw.id),
    channel: raw.channel,
    account: raw.account,
    eventId: raw.event_id,
    ...(messageId !== undefined ? { messageId } : {}),
    sessionKey: raw.session_key,
    event,
    status: raw.status,
    receivedAt: Number(raw.received_at),
    ...(raw.done_at !== null ? { doneAt: Number(raw.done_at) } : {}),
    ...(outcome ? { outcome } : {}),
    redeliveries: Number(raw.redeliveries ?? 0),
    ...(raw.redelivered_at !== null ? { redeliveredAt: Number(raw.redelivered_at) } : {}),
  };
}

function toReply(raw: RawReply): TracedReply {
  return {
    id: Number(raw.id),
    status: raw.status,
    text: raw.text,
    ...(raw.platform_id !== null ? { platformId: raw.platform_id } : {}),
    ...(raw.error !== null ? { error: raw.error } : {}),
    attempts: Number(raw.attempts ?? 0),
    createdAt: Number(raw.created_at),
    ...(raw.sent_at !== null ? { sentAt: Number(raw.sent_at) } : {}),
  };
}

/** The platform message id of a stored message event. */
function messageIdOf(event: unknown): string | undefined {
  const ref = (event as { type?: string; ref?: { messageId?: unknown } }).ref;
  return typeof ref?.messageId === "string" ? ref.messageId : undefined;
}
