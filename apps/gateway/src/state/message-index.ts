import { ChorusError, type MessageRef, parseMessageRef } from "@chorus/core";
import type { MessageLookup, RefsTable } from "./refs-table.js";
import type { SqlDb } from "./sql/sql.js";

export interface MessageIndexOptions {
  db: SqlDb;
  refs: RefsTable;
  /** Failed background writes. */
  onWarning?: (message: string, error?: unknown) => void;
}

const lookupKey = (l: MessageLookup) => `${l.channel}\u0000${l.accountId}\u0000${l.conversationId}\u0000${l.messageId}`;

/**
 * The persisted, bounded index of the `MessageRef`s the agent saw, per conversation (DESIGN
 * §2.3), on the state layer. Inbound refs are committed with their inbox row; refs of sent
 * messages are put here and written in the next tick (one transaction for all put meanwhile).
 */
export class MessageIndex {
  readonly #pending = new Map<string, MessageRef>();
  #writing: Promise<void> | undefined;

  constructor(private readonly options: MessageIndexOptions) {}

  /**
   * Remembers `ref`, written soon after. A message id seen before keeps its place in the
   * conversation's order (its ref is replaced): a reaction to it does not make it the newest.
   */
  put(ref: MessageRef): void {
    const valid = parseMessageRef(ref);
    this.#pending.set(lookupKey(valid), valid);
    this.#writing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.#write());
  }

  /** The reference of a message seen earlier (also before a restart), or `undefined`. */
  async get(lookup: MessageLookup): Promise<MessageRef | undefined> {
    for (const field of ["channel", "accountId", "conversationId", "messageId"] as const) {
      if (typeof lookup[field] !== "string" || lookup[field] === "") {
        throw new ChorusError("E_INVALID_INPUT", `message lookup field ${field} must be a non-empty string`);
      }
    }
    return this.#pending.get(lookupKey(lookup)) ?? (await this.options.refs.get(lookup));
  }

  /** Resolves when every reference put so far is committed. */
  async flush(): Promise<void> {
    while (this.#writing) await this.#writing;
  }

  async #write(): Promise<void> {
    const batch = [...this.#pending.values()];
    try {
      await this.options.db.tx((sql) => this.options.refs.put(sql, batch));
      for (const ref of batch) if (this.#pending.get(lookupKey(ref)) === ref) this.#pending.delete(lookupKey(ref));
    } catch (error) {
      this.options.onWarning?.("could not save message references", error);
      for (const ref of batch) this.#pending.delete(lookupKey(ref));
    } finally {
      this.#writing = undefined;
      if (this.#pending.size > 0) this.#writing = Promise.resolve().then(() => this.#write());
    }
  }
}
