import { randomUUID } from "node:crypto";
import type { TranscriptEntry } from "../sessions/index.js";
import type { InboxOutcome, OutboxRow, SessionRow, Sql, StateStore } from "../state/index.js";
import { copyWith } from "../support/index.js";
import type { ReplyDraft } from "../turn/index.js";
import { TickBatch } from "./tick-batch.js";

/** Everything a handled inbound message (or a heartbeat) leaves behind, committed at once. */
export interface Completion {
  /** The session it belongs to (outbox rows are resumed per session, in order). */
  sessionKey: string;
  /** The inbox row this completes; absent for heartbeats. */
  inboxId?: number;
  /** The row is a group message kept as context for the session's next turn: marked `buffered`, not `done`. */
  buffered?: boolean;
  /** What became of the inbox row (kept on it: `chorus trace`). */
  outcome?: InboxOutcome;
  /** Transcript entries to append, to this session id. */
  transcript?: { sessionId: string; entries: readonly TranscriptEntry[] };
  /** Session entries as they are after it. */
  sessions: readonly SessionRow[];
  replies: readonly ReplyDraft[];
  /** Runs first in the transaction and may refuse it (a lost lease). */
  fence?: (sql: Sql) => Promise<void>;
  /** More of the same transaction (the system events a turn consumed, a group context's mark). */
  also?: (sql: Sql) => Promise<void>;
}

/**
 * The commit step: a completion in one transaction — transcript entries, session entries, the
 * replies as outbox rows, and the inbox row marked done or buffered. A crash before the commit
 * leaves the inbox row to be handled again; a crash after it leaves the replies in the outbox,
 * sent by the deliver step (after a restart too).
 *
 * Completions without a transcript or replies (a group message kept as context, a blocked message,
 * a reaction handled) that arrive in the same tick share one transaction (group commit: with many
 * busy groups a commit per message is most of the inbound cost); when it fails, each is committed
 * on its own, so one refused fence fails only its own completion.
 */
export class Committer {
  readonly #quiet: TickBatch<Completion, OutboxRow[]>;

  constructor(private readonly state: StateStore) {
    // Each completion is a group of its own: when the shared transaction fails, each is tried alone.
    const ids = new WeakMap<Completion, string>();
    let next = 0;
    const idOf = (completion: Completion): string => {
      const known = ids.get(completion);
      if (known !== undefined) return known;
      const id = String(++next);
      ids.set(completion, id);
      return id;
    };
    this.#quiet = new TickBatch((completions) => this.#transaction(completions), idOf);
  }

  /** Commits; resolves with the outbox rows to deliver, in order. */
  commit(completion: Completion): Promise<OutboxRow[]> {
    if (completion.transcript || completion.replies.length > 0) {
      return this.#transaction([completion]).then(([rows]) => rows ?? []);
    }
    return this.#quiet.add(completion);
  }

  /** One transaction for the completions, in order; the outbox rows each recorded. */
  #transaction(completions: readonly Completion[]): Promise<OutboxRow[][]> {
    const now = Date.now();
    return this.state.db.tx(async (sql) => {
      const rows: OutboxRow[][] = [];
      for (const completion of completions) rows.push(await this.#write(sql, completion, now));
      return rows;
    });
  }

  async #write(sql: Sql, completion: Completion, now: number): Promise<OutboxRow[]> {
    if (completion.fence) await completion.fence(sql);
    const transcriptIds = completion.transcript
      ? await this.state.transcripts.append(
          sql,
          completion.transcript.sessionId,
          completion.transcript.entries as never[],
        )
      : [];
    if (completion.sessions.length > 0) await this.state.sessions.save(sql, completion.sessions, now);
    const rows: OutboxRow[] = [];
    for (const reply of completion.replies) {
      const transcriptId = reply.entryIndex === undefined ? undefined : transcriptIds[reply.entryIndex];
      const insert = {
        sessionKey: completion.sessionKey,
        channel: reply.scope.channel,
        account: reply.scope.accountId,
        scope: reply.scope,
        text: reply.text,
        ...(reply.replyTo !== undefined ? { replyTo: reply.replyTo } : {}),
        idempotencyKey: randomUUID(),
        ...(transcriptId !== undefined ? { transcriptId } : {}),
        ...(completion.inboxId !== undefined ? { inboxId: completion.inboxId } : {}),
      };
      const id = await this.state.outbox.add(sql, insert, now);
      rows.push(copyWith(insert, { id, status: "pending" as const }));
    }
    if (completion.also) await completion.also(sql);
    if (completion.inboxId !== undefined) {
      const status = completion.buffered ? "buffered" : "done";
      await this.state.inbox.done(sql, completion.inboxId, now, status, completion.outcome);
    }
    return rows;
  }
}
