import type { Sql, SqlDb } from "./sql/sql.js";
import type { TranscriptsTable } from "./transcripts-table.js";

/** A reply to record before it is sent. */
export interface OutboxInsert {
  sessionKey: string;
  channel: string;
  account: string;
  /** Where to send (the turn's scope: channel, account, conversation, the message answered). */
  scope: unknown;
  text: string;
  /** The platform message id to reply to. */
  replyTo?: string;
  /** Sent with the message where the platform de-duplicates on one. */
  idempotencyKey: string;
  /** The transcript entry that records this reply (its messageId is filled in when sent). */
  transcriptId?: number;
  /** The inbox row of the message it answers (`chorus trace`); none for heartbeats. */
  inboxId?: number;
}

/** A recorded reply. */
export interface OutboxRow extends OutboxInsert {
  id: number;
  status: "pending" | "sent" | "failed";
  platformId?: string;
}

interface RawRow {
  id: number;
  session_key: string;
  channel: string;
  account: string;
  scope: string;
  text: string;
  reply_to: string | null;
  idempotency_key: string;
  transcript_id: number | null;
  status: "pending" | "sent" | "failed";
  platform_id: string | null;
}

function toRow(raw: RawRow): OutboxRow {
  return {
    id: raw.id,
    sessionKey: raw.session_key,
    channel: raw.channel,
    account: raw.account,
    scope: JSON.parse(raw.scope),
    text: raw.text,
    ...(raw.reply_to === null ? {} : { replyTo: raw.reply_to }),
    idempotencyKey: raw.idempotency_key,
    ...(raw.transcript_id === null ? {} : { transcriptId: raw.transcript_id }),
    status: raw.status,
    ...(raw.platform_id === null ? {} : { platformId: raw.platform_id }),
  };
}

/** The durable outbox: a reply is a `pending` row before it is sent, `sent` (with its id) after. */
export class OutboxTable {
  constructor(
    private readonly db: SqlDb,
    private readonly transcripts: TranscriptsTable,
  ) {}

  /** Records a reply (in the caller's transaction); resolves with its id. */
  async add(sql: Sql, row: OutboxInsert, now: number): Promise<number> {
    const inserted = await sql.one<{ id: number }>(
      `INSERT INTO outbox (session_key, channel, account, scope, text, reply_to, idempotency_key, transcript_id, status, created_at, inbox_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', $9, $10) RETURNING id`,
      [
        row.sessionKey,
        row.channel,
        row.account,
        JSON.stringify(row.scope),
        row.text,
        row.replyTo ?? null,
        row.idempotencyKey,
        row.transcriptId ?? null,
        now,
        row.inboxId ?? null,
      ],
    );
    return inserted?.id as number;
  }

  /** Replies recorded and not yet sent, oldest first (of one session, or all). */
  async pending(sessionKey?: string): Promise<OutboxRow[]> {
    const rows =
      sessionKey === undefined
        ? await this.db.all<RawRow>("SELECT * FROM outbox WHERE status = 'pending' ORDER BY id")
        : await this.db.all<RawRow>("SELECT * FROM outbox WHERE status = 'pending' AND session_key = $1 ORDER BY id", [
            sessionKey,
          ]);
    return rows.map(toRow);
  }

  /** One row by id. */
  async get(id: number): Promise<OutboxRow | undefined> {
    const raw = await this.db.one<RawRow>("SELECT * FROM outbox WHERE id = $1", [id]);
    return raw && toRow(raw);
  }

  /** The reply reached the platform: its id goes on the row and on the transcript entry, in one transaction. */
  markSent(row: Pick<OutboxRow, "id" | "transcriptId">, platformId: string | undefined, now: number): Promise<void> {
    return this.db.tx(async (sql) => {
      await sql.run(
        "UPDATE outbox SET status = 'sent', platform_id = $1, sent_at = $2, attempts = COALESCE(attempts, 0) + 1 WHERE id = $3",
        [platformId ?? null, now, row.id],
      );
      if (row.transcriptId !== undefined && platformId !== undefined) {
        await this.transcripts.setMessageId(sql, row.transcriptId, platformId);
      }
    });
  }

  /** Sending failed for good (`error`: its code and message): the row is not sent again. */
  async markFailed(id: number, now: number, error?: string): Promise<void> {
    await this.db.run(
      "UPDATE outbox SET status = 'failed', sent_at = $1, error = $3, attempts = COALESCE(attempts, 0) + 1 WHERE id = $2",
      [now, id, error ?? null],
    );
  }

  /** An attempt that left the row pending (its channel is not running): counted, with its error. */
  async markWaiting(id: number, error: string): Promise<void> {
    await this.db.run("UPDATE outbox SET error = $2, attempts = COALESCE(attempts, 0) + 1 WHERE id = $1", [id, error]);
  }

  /** Rows by status (tests). */
  async counts(): Promise<Record<string, number>> {
    const rows = await this.db.all<{ status: string; n: number }>(
      "SELECT status, count(*) AS n FROM outbox GROUP BY status",
    );
    return Object.fromEntries(rows.map((r) => [r.status, r.n]));
  }
}
