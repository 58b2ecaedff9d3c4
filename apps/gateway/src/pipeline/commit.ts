import { randomUUID } from "node:crypto";
import { toChorusError } from "@chorus/core";
import type { Logger } from "pino";
import type { MessageToolCalls, TurnScope } from "../channels/message-tool.js";
import { copyWith } from "../copy-with.js";
import type { TranscriptEntry } from "../sessions/transcript-entry.js";
import type { OutboxRow, SessionRow, Sql, StateStore } from "../state/index.js";

/** A reply to record in the outbox, then send. */
export interface ReplyDraft {
  text: string;
  scope: TurnScope;
  /** The platform message id to reply to (groups). */
  replyTo?: string;
  /** Which of the committed transcript entries records this reply (its messageId is set once sent). */
  entryIndex?: number;
}

/** Everything a handled inbound message (or a heartbeat) leaves behind, committed at once. */
export interface Completion {
  /** The session it belongs to (outbox rows are resumed per session, in order). */
  sessionKey: string;
  /** The inbox row this completes; absent for heartbeats. */
  inboxId?: number;
  /** The row is a group message kept as context for the session's next turn: marked `buffered`, not `done`. */
  buffered?: boolean;
  /** Transcript entries to append, to this session id. */
  transcript?: { sessionId: string; entries: readonly TranscriptEntry[] };
  /** Session entries as they are after it. */
  sessions: readonly SessionRow[];
  replies: readonly ReplyDraft[];
  /** Runs first in the transaction and may refuse it (a lost lease). */
  fence?: (sql: Sql) => Promise<void>;
  /** More of the same transaction (the system events the turn consumed). */
  also?: (sql: Sql) => Promise<void>;
}

interface Grouped {
  completion: Completion;
  resolve(rows: OutboxRow[]): void;
  reject(error: unknown): void;
}

/**
 * Commits a completion in one transaction — transcript entries, session entries, the replies as
 * outbox rows, and the inbox row marked done — then sends the replies from the outbox, marking
 * each sent with the platform's message id. A crash before the commit leaves the inbox row to
 * be handled again; a crash after it leaves the replies in the outbox to be sent on restart.
 *
 * Completions without a transcript or replies (a group message buffered as context, a blocked
 * message, a reaction handled) that arrive in the same tick share one transaction (group commit:
 * with many busy groups a commit per message is most of the inbound cost); if that transaction
 * fails, each is committed on its own, so one refused fence fails only its own completion.
 */
export class TurnCommitter {
  #group: Grouped[] | undefined;

  constructor(
    private readonly state: StateStore,
    private readonly tools: MessageToolCalls,
    private readonly logger: Pick<Logger, "warn">,
  ) {}

  /** Commits; resolves with the outbox rows to deliver, in order. */
  commit(completion: Completion): Promise<OutboxRow[]> {
    if (completion.transcript || completion.replies.length > 0) return this.#commitOne(completion);
    return new Promise((resolve, reject) => {
      if (!this.#group) {
        this.#group = [];
        setImmediate(() => void this.#commitGroup());
      }
      this.#group.push({ completion, resolve, reject });
    });
  }

  async #commitGroup(): Promise<void> {
    const group = this.#group ?? [];
    this.#group = undefined;
    if (group.length === 1) {
      const [only] = group as [Grouped];
      return this.#commitOne(only.completion).then(only.resolve, only.reject);
    }
    const now = Date.now();
    try {
      await this.state.db.tx(async (sql) => {
        for (const { completion } of group) {
          if (completion.fence) await completion.fence(sql);
          await this.state.sessions.save(sql, completion.sessions, now);
          await this.#finish(sql, completion, now);
        }
      });
    } catch {
      for (const { completion, resolve, reject } of group) void this.#commitOne(completion).then(resolve, reject);
      return;
    }
    for (const { resolve } of group) resolve([]);
  }

  async #commitOne(completion: Completion): Promise<OutboxRow[]> {
    const now = Date.now();
    return this.state.db.tx(async (sql) => {
      if (completion.fence) await completion.fence(sql);
      const transcriptIds = completion.transcript
        ? await this.state.transcripts.append(
            sql,
            completion.transcript.sessionId,
            completion.transcript.entries as never[],
          )
        : [];
      await this.state.sessions.save(sql, completion.sessions, now);
      const rows: OutboxRow[] = [];
      for (const reply of completion.replies) {
        const insert = {
          sessionKey: completion.sessionKey,
          channel: reply.scope.channel,
          account: reply.scope.accountId,
          scope: reply.scope,
          text: reply.text,
          ...(reply.replyTo !== undefined ? { replyTo: reply.replyTo } : {}),
          idempotencyKey: randomUUID(),
          ...(reply.entryIndex !== undefined && transcriptIds[reply.entryIndex] !== undefined
            ? { transcriptId: transcriptIds[reply.entryIndex] }
            : {}),
        };
        const id = await this.state.outbox.add(sql, insert, now);
        rows.push(copyWith(insert, { id, status: "pending" as const }));
      }
      await this.#finish(sql, completion, now);
      return rows;
    });
  }

  /** The end of every completion's transaction: what more it writes, and its inbox row marked. */
  async #finish(sql: Sql, completion: Completion, now: number): Promise<void> {
    if (completion.also) await completion.also(sql);
    if (completion.inboxId !== undefined) {
      await this.state.inbox.done(sql, completion.inboxId, now, completion.buffered ? "buffered" : "done");
    }
  }

  /** Sends recorded replies in order; resolves with each one's platform message id (undefined: it failed, logged). */
  async deliver(rows: readonly OutboxRow[]): Promise<(string | undefined)[]> {
    const ids: (string | undefined)[] = [];
    for (const row of rows) ids.push(await this.#send(row));
    return ids;
  }

  async #send(row: OutboxRow): Promise<string | undefined> {
    const scope = row.scope as TurnScope;
    let messageId: string | undefined;
    try {
      const sent = await this.tools.execute(
        { action: "send", text: row.text, ...(row.replyTo !== undefined ? { replyTo: row.replyTo } : {}) },
        scope,
        { idempotencyKey: row.idempotencyKey },
      );
      messageId = sent.action === "send" ? sent.messageId : undefined;
    } catch (error) {
      const failure = toChorusError(error);
      // The channel is not running (restarting, or stopped here): the reply stays in the outbox
      // and is sent once it runs again. Any other failure is final, as it always was: logged.
      if (failure.code === "E_DISABLED") {
        this.logger.warn({ sessionKey: row.sessionKey, err: failure.message }, "the reply waits in the outbox");
        return undefined;
      }
      this.logger.warn({ sessionKey: row.sessionKey, err: failure.message }, "could not send the reply");
      await this.state.outbox.markFailed(row.id, Date.now());
      return undefined;
    }
    await this.state.outbox.markSent(row, messageId, Date.now());
    return messageId;
  }
}
