import { ChorusError } from "@chorus/core";
import type { Sql, StateStore } from "../state/index.js";
import { serializeEntries, type TranscriptEntry } from "./transcript-entry.js";

export interface ReadTranscriptOptions {
  /** Only the last `limit` entries. */
  limit?: number;
}

/** Checks entries the way the JSONL transcripts did (a bad entry is `E_INVALID_INPUT`). */
function checked(sessionId: string, entries: readonly TranscriptEntry[]): TranscriptEntry[] {
  serializeEntries(`transcript ${sessionId}`, entries);
  return [...entries];
}

/**
 * Session transcripts on the state layer (DESIGN §5): one row per entry, appended per turn in
 * the turn's transaction; reading the last N costs the same however long the conversation.
 */
export class TranscriptStore {
  constructor(private readonly state: StateStore) {}

  /** Appends `entries` (in `sql`'s transaction when given); resolves with their row ids. */
  async append(sessionId: string, entries: readonly TranscriptEntry[], sql?: Sql): Promise<number[]> {
    const valid = checked(sessionId, entries);
    if (valid.length === 0) return [];
    const write = (tx: Sql) => this.state.transcripts.append(tx, sessionId, valid as never[]);
    return sql ? write(sql) : this.state.db.tx(write);
  }

  /** The session's entries (the last `limit`); `[]` when there are none. */
  async read(sessionId: string, options: ReadTranscriptOptions = {}): Promise<TranscriptEntry[]> {
    const limit = options.limit;
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) {
      throw new ChorusError("E_INVALID_INPUT", `limit must be a non-negative integer, got ${limit}`);
    }
    if (limit === 0) return [];
    return (await this.state.transcripts.read(sessionId, limit)) as unknown as TranscriptEntry[];
  }

  /** Replaces the whole transcript in one transaction (compaction). */
  async rewrite(sessionId: string, entries: readonly TranscriptEntry[]): Promise<void> {
    const valid = checked(sessionId, entries);
    await this.state.db.tx((sql) => this.state.transcripts.replace(sql, sessionId, valid as never[]));
  }

  /** Deletes the transcript; no error when there is none. */
  async remove(sessionId: string): Promise<void> {
    await this.state.transcripts.remove(sessionId);
  }
}
