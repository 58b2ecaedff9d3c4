import type { InboundMessageEvent } from "@chorus/core";
import type { BufferedRow, Sql, StateStore } from "../state/index.js";
import { echoDigest, isEcho } from "./echo.js";
import { type PendingMessage, pendingOf } from "./history.js";

/** The `kv` scope of group sessions' marks. */
export const GROUP_CONTEXT_SCOPE = "group-context";

/**
 * Where a group session's context stands, as the last message that consumed it left it (a
 * triggered message, an echo, `/new`, `/reset`). The same row decided again (its turn was cut
 * short by a crash or a shutdown) reads what stood before it, so deciding is idempotent.
 */
interface Mark {
  /** The inbox row that set it. */
  row: number;
  /** That row's context was the buffered rows after this id (and before `row`). */
  from: number;
  /** Digest of the batch `row` made (the echo memory), and of the one before it. */
  echo?: string;
  before?: string;
}

/** A triggered group message's context, read from the state layer. */
export interface TriggeredContext {
  /** The buffered messages since the session's last turn, the last `limit`, oldest first. */
  pending: PendingMessage[];
  /**
   * Whether `batch` repeats the session's previous one without a mention (echo), and the write
   * that records it as the session's last (context consumed, echo memory), for the caller to run
   * in the commit the message has anyway.
   */
  settle(batch: string, mentioned: boolean): { echo: boolean; record(sql: Sql): Promise<void> };
}

/**
 * Pending group context and echo memory on the state layer (DESIGN §4), so that a turn on any
 * gateway sees what any gateway buffered. A buffered message costs no write of its own: its inbox
 * row is marked `buffered` instead of `done` in the commit it already had. A triggered message
 * reads the session's buffered rows after the last turn's row (bounded by `historyLimit`) and
 * moves the session's mark (one small `kv` row) to itself, in the commit of its turn.
 */
export class GroupContextStore {
  constructor(private readonly state: Pick<StateStore, "kv" | "inbox">) {}

  /**
   * The context of the triggered message of inbox row `row` in `sessionKey`; `linesOf` gives the
   * lines of a buffered message's attachments, after its text.
   */
  async triggered(
    sessionKey: string,
    row: number,
    limit: number,
    linesOf?: (row: BufferedRow) => Promise<readonly string[]>,
  ): Promise<TriggeredContext> {
    const mark = await this.#mark(sessionKey);
    const again = mark?.row === row;
    const from = again ? mark.from : (mark?.row ?? 0);
    const previous = again ? mark.before : mark?.echo;
    const rows = await this.state.inbox.buffered(sessionKey, from, row, limit);
    const pending: PendingMessage[] = [];
    for (const buffered of rows) {
      const message = pendingOf(buffered.event as InboundMessageEvent);
      const lines = (await linesOf?.(buffered)) ?? [];
      pending.push(
        lines.length === 0 ? message : { ...message, text: [message.text, ...lines].filter(Boolean).join("\n") },
      );
    }
    return {
      pending,
      settle: (batch, mentioned) => {
        const digest = echoDigest(batch);
        const mark: Mark = { row, from, echo: digest, ...(previous !== undefined ? { before: previous } : {}) };
        return { echo: isEcho(previous, digest, mentioned), record: (sql) => this.#write(sessionKey, mark, sql) };
      },
    };
  }

  /** Forgets a session's buffered messages and echo memory as of inbox row `row` (`/new`, `/reset`). */
  async forget(sessionKey: string, row: number): Promise<void> {
    await this.#write(sessionKey, { row, from: row });
  }

  async #mark(sessionKey: string): Promise<Mark | undefined> {
    const raw = await this.state.kv.get(GROUP_CONTEXT_SCOPE, sessionKey, Date.now());
    if (raw === undefined) return undefined;
    try {
      const mark = JSON.parse(raw) as Partial<Mark>;
      return typeof mark.row === "number" && typeof mark.from === "number" ? (mark as Mark) : undefined;
    } catch {
      return undefined;
    }
  }

  async #write(sessionKey: string, mark: Mark, sql?: Sql): Promise<void> {
    await this.state.kv.set(GROUP_CONTEXT_SCOPE, sessionKey, JSON.stringify(mark), undefined, sql);
  }
}
