import type { MessageRef } from "@chorus/core";
import type { RefsTable } from "./refs-table.js";
import { rowCount, type Sql, type SqlDb } from "./sql/sql.js";

/** An inbound event to commit: its dedupe key, the session it belongs to, and the refs it carries. */
export interface InboxInsert {
  channel: string;
  account: string;
  eventId: string;
  /** The session whose turns it feeds; null for events that feed none (reactions). */
  sessionKey: string | null;
  event: unknown;
  /** Message refs to index in the same transaction. */
  refs: readonly MessageRef[];
  /** The platform's id of the message (`chorus trace` finds the row by it); none for reactions. */
  messageId?: string | undefined;
}

/** What the handle step made of an inbound event, kept on its row (`chorus trace` shows it). */
export type HandledOutcome =
  /** A turn ran: it answered, stayed silent (`NO_REPLY`, or an outside agent answered itself), or failed. */
  | "replied"
  | "no-reply"
  | "error"
  /** A group message kept as context for the next triggered turn. */
  | "buffered"
  /** Refused by an access rule (the reason names it). */
  | "blocked"
  /** A chat command answered by the gateway. */
  | "command"
  /** The same batch again without a mention (echo suppression). */
  | "echo"
  /** A reaction, handled as a note for its conversation's next turn (or not, as `reactionNotifications` says). */
  | "reaction";

/** An outcome and what explains it. */
export interface InboxOutcome {
  outcome: HandledOutcome;
  /** Why (a block's rule, why a message was kept as context, an error's code and message). */
  reason?: string;
  /** For a turn: its agent, the model's provider, the model's time and the whole turn's (ms). */
  agent?: string;
  provider?: string;
  modelMs?: number;
  turnMs?: number;
}

/** A committed inbound event. */
export interface InboxRow {
  id: number;
  channel: string;
  account: string;
  eventId: string;
  sessionKey: string | null;
  event: unknown;
  /** `buffered`: done, and kept as context for the session's next triggered turn (a group message that did not trigger one). */
  status: "received" | "done" | "buffered";
  /** When it was committed, epoch ms. */
  receivedAt: number;
}

/** A buffered row: its id and its event. */
export interface BufferedRow {
  id: number;
  event: unknown;
}

interface RawRow {
  id: number;
  channel: string;
  account: string;
  event_id: string;
  session_key: string | null;
  event: string;
  status: "received" | "done" | "buffered";
  received_at: number;
}

const COLUMNS = "id, channel, account, event_id, session_key, event, status, received_at";

function toRow(raw: RawRow): InboxRow {
  return {
    id: raw.id,
    channel: raw.channel,
    account: raw.account,
    eventId: raw.event_id,
    sessionKey: raw.session_key,
    event: JSON.parse(raw.event),
    status: raw.status,
    receivedAt: raw.received_at,
  };
}

/**
 * The durable inbox: an event is committed (durably) before its channel acknowledges the
 * platform; (channel, account, event_id) is unique, so a redelivery is recognised in the same
 * transaction. Rows go from `received` to `done` with the turn's result.
 */
export class InboxTable {
  constructor(
    private readonly db: SqlDb,
    private readonly refs: RefsTable,
  ) {}

  /**
   * Commits a batch in one durable transaction; per insert, the new row's id, or undefined for
   * a redelivery. `fence` runs first in the transaction and may refuse the whole batch (a lost lease).
   * `committed` gets the ids as soon as the rows are readable, before they are on the disk.
   */
  accept(
    batch: readonly InboxInsert[],
    now: number,
    fence?: (sql: Sql) => Promise<void>,
    committed?: (ids: (number | undefined)[]) => void,
  ): Promise<(number | undefined)[]> {
    return this.db.tx(
      async (sql) => {
        if (fence) await fence(sql);
        return this.acceptIn(sql, batch, now);
      },
      { durable: true, ...(committed ? { committed } : {}) },
    );
  }

  /**
   * The inserts of `accept`, in the caller's transaction. On PostgreSQL they hold a transaction
   * lock until the commit, so inbox ids are committed in id order across gateways: the event
   * stream reads "after id N" and must never pass a row that a slower gateway commits later.
   */
  async acceptIn(sql: Sql, batch: readonly InboxInsert[], now: number): Promise<(number | undefined)[]> {
    if (sql.dialect === "postgres")
      await sql.run("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", ["inbox:order"]);
    const ids: (number | undefined)[] = [];
    for (const item of batch) {
      const row = await sql.one<{ id: number }>(
        `INSERT INTO inbox (channel, account, event_id, session_key, event, status, received_at, message_id)
         VALUES ($1, $2, $3, $4, $5, 'received', $6, $7)
         ON CONFLICT (channel, account, event_id) DO NOTHING RETURNING id`,
        [
          item.channel,
          item.account,
          item.eventId,
          item.sessionKey,
          JSON.stringify(item.event),
          now,
          item.messageId ?? null,
        ],
      );
      ids.push(row?.id);
      if (row && item.refs.length > 0) await this.refs.put(sql, item.refs);
      // A redelivery: dropped, and counted on the row it repeats.
      if (!row) {
        await sql.run(
          `UPDATE inbox SET redeliveries = COALESCE(redeliveries, 0) + 1, redelivered_at = $1
           WHERE channel = $2 AND account = $3 AND event_id = $4`,
          [now, item.channel, item.account, item.eventId],
        );
      }
    }
    return ids;
  }

  /** Rows received and not done, oldest first (all of them, or of some accounts). */
  async received(accounts?: readonly { channel: string; account: string }[]): Promise<InboxRow[]> {
    const rows = await this.db.all<RawRow>(`SELECT ${COLUMNS} FROM inbox WHERE status = 'received' ORDER BY id`);
    const wanted = accounts && new Set(accounts.map((a) => `${a.channel}\u0000${a.account}`));
    return rows.map(toRow).filter((row) => !wanted || wanted.has(`${row.channel}\u0000${row.account}`));
  }

  /**
   * The sessions with rows received and not done, with the accounts of those rows, the session
   * with the oldest such row first (what a sweep wakes, without reading every row).
   */
  async receivedSessions(): Promise<{ sessionKey: string; channel: string; account: string }[]> {
    return this.db.all<{ sessionKey: string; channel: string; account: string }>(
      `SELECT session_key AS "sessionKey", channel, account FROM inbox
       WHERE status = 'received' AND session_key IS NOT NULL
       GROUP BY session_key, channel, account ORDER BY min(id)`,
    );
  }

  /** Rows received and not done that feed no session (reactions), committed before `before`, oldest first. */
  async receivedLoose(before: number): Promise<InboxRow[]> {
    const rows = await this.db.all<RawRow>(
      `SELECT ${COLUMNS} FROM inbox WHERE status = 'received' AND session_key IS NULL AND received_at < $1 ORDER BY id`,
      [before],
    );
    return rows.map(toRow);
  }

  /** Rows after `id`, oldest first, at most `limit` (the event stream reads the inbox this way). */
  async after(id: number, limit: number): Promise<InboxRow[]> {
    const rows = await this.db.all<RawRow>(`SELECT ${COLUMNS} FROM inbox WHERE id > $1 ORDER BY id LIMIT $2`, [
      id,
      limit,
    ]);
    return rows.map(toRow);
  }

  /** The newest and the oldest row id still kept (0 when the inbox is empty). */
  async bounds(): Promise<{ oldest: number; newest: number }> {
    const row = await this.db.one<{ oldest: number | null; newest: number | null }>(
      "SELECT min(id) AS oldest, max(id) AS newest FROM inbox",
    );
    return { oldest: Number(row?.oldest ?? 0), newest: Number(row?.newest ?? 0) };
  }

  /** The oldest rows of a session still to handle (after row `after`), at most `limit`, oldest first. */
  async nextRows(sessionKey: string, limit: number, after = 0): Promise<InboxRow[]> {
    const rows = await this.db.all<RawRow>(
      `SELECT ${COLUMNS} FROM inbox WHERE session_key = $1 AND status = 'received' AND id > $2 ORDER BY id LIMIT ${rowCount(limit)}`,
      [sessionKey, after],
    );
    return rows.map(toRow);
  }

  /**
   * Marks a row done (in the caller's transaction), with its outcome when known; false when it was
   * done already. `buffered` marks it done as a group message kept as context, in the same statement.
   */
  async done(
    sql: Sql,
    id: number,
    now: number,
    status: "done" | "buffered" = "done",
    outcome?: InboxOutcome,
  ): Promise<boolean> {
    const { outcome: kind = null, ...detail } = outcome ?? {};
    return (
      (await sql.run(
        `UPDATE inbox SET status = $1, done_at = $2, outcome = $4, outcome_detail = $5
         WHERE id = $3 AND status = 'received'`,
        [status, now, id, kind, Object.keys(detail).length > 0 ? JSON.stringify(detail) : null],
      )) > 0
    );
  }

  /**
   * A session's buffered rows with `after < id < before`, the last `limit` of them, oldest first
   * (the pending group context of the turn that `before` triggers).
   */
  async buffered(sessionKey: string, after: number, before: number, limit: number): Promise<BufferedRow[]> {
    if (limit <= 0) return [];
    const rows = await this.db.all<{ id: number; event: string }>(
      `SELECT id, event FROM inbox WHERE session_key = $1 AND status = 'buffered' AND id > $2 AND id < $3
       ORDER BY id DESC LIMIT $4`,
      [sessionKey, after, before, limit],
    );
    return rows.reverse().map((row) => ({ id: row.id, event: JSON.parse(row.event) }));
  }

  /** Forgets done (and buffered) rows older than `before` (the dedupe window); resolves with how many. */
  async prune(before: number): Promise<number> {
    return (
      (await this.db.run("DELETE FROM inbox WHERE status = 'done' AND done_at < $1", [before])) +
      (await this.db.run("DELETE FROM inbox WHERE status = 'buffered' AND done_at < $1", [before]))
    );
  }

  /** Rows by status (tests and `chorus sessions`). */
  async counts(): Promise<{ received: number; done: number }> {
    const rows = await this.db.all<{ status: string; n: number }>(
      "SELECT status, count(*) AS n FROM inbox GROUP BY status",
    );
    const of = (status: string) => rows.find((r) => r.status === status)?.n ?? 0;
    return { received: of("received"), done: of("done") + of("buffered") };
  }
}
