import type { SqlDb } from "./sql/sql.js";

/** What waits in the durable queues: inbound events received and not handled, replies recorded and not sent. */
export interface QueueStats {
  inbox: { backlog: number; oldestAt?: number };
  outbox: { pending: number; oldestAt?: number };
}

/** Counts the inbox's backlog and the outbox's pending replies, with the oldest of each (the partial indexes serve both). */
export async function queueStats(db: SqlDb): Promise<QueueStats> {
  const inbox = await db.one<{ n: number; oldest: number | null }>(
    "SELECT count(*) AS n, min(received_at) AS oldest FROM inbox WHERE status = 'received'",
  );
  const outbox = await db.one<{ n: number; oldest: number | null }>(
    "SELECT count(*) AS n, min(created_at) AS oldest FROM outbox WHERE status = 'pending'",
  );
  const of = (row: { n: number; oldest: number | null } | undefined) =>
    row?.oldest === null || row?.oldest === undefined ? {} : { oldestAt: Number(row.oldest) };
  return {
    inbox: { backlog: Number(inbox?.n ?? 0), ...of(inbox) },
    outbox: { pending: Number(outbox?.n ?? 0), ...of(outbox) },
  };
}
