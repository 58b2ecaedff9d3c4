import type { MessageRef } from "@chorus/core";
import type { Sql, SqlDb } from "./sql/sql.js";

/** What identifies one message across channels, accounts and conversations. */
export interface MessageLookup {
  channel: string;
  accountId: string;
  conversationId: string;
  messageId: string;
}

/** How often (in puts per conversation) the bound is enforced; between, a conversation may hold a few more. */
const TRIM_EVERY = 50;

/** The `message_refs` table: the message index (DESIGN §2.3), bounded per conversation. */
export class RefsTable {
  #seq = Date.now() * 1000;
  readonly #sinceTrim = new Map<string, number>();

  constructor(
    private readonly db: SqlDb,
    private readonly perConversation: number,
  ) {}

  /**
   * Remembers refs. A new message id gets the next `seq`: messages are ordered by when the gateway
   * first saw them, received or sent. A re-put of a known id (a reaction to it, a completed ref)
   * replaces its ref and keeps its place: a reaction never makes an old message the newest.
   */
  async put(sql: Sql, refs: readonly MessageRef[]): Promise<void> {
    for (const ref of refs) {
      await sql.run(
        `INSERT INTO message_refs (channel, account, conversation, message_id, ref, seq) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (channel, account, conversation, message_id) DO UPDATE SET ref = excluded.ref`,
        [ref.channel, ref.accountId, ref.conversationId, ref.messageId, JSON.stringify(ref), ++this.#seq],
      );
      const conversation = `${ref.channel}\u0000${ref.accountId}\u0000${ref.conversationId}`;
      const count = (this.#sinceTrim.get(conversation) ?? 0) + 1;
      if (count < TRIM_EVERY) {
        this.#sinceTrim.set(conversation, count);
        continue;
      }
      this.#sinceTrim.delete(conversation);
      await sql.run(
        `DELETE FROM message_refs WHERE channel = $1 AND account = $2 AND conversation = $3 AND seq <= (
           SELECT seq FROM message_refs WHERE channel = $1 AND account = $2 AND conversation = $3
           ORDER BY seq DESC LIMIT 1 OFFSET $4)`,
        [ref.channel, ref.accountId, ref.conversationId, this.perConversation],
      );
    }
  }

  /** The ref of a message seen earlier, or undefined. */
  async get(lookup: MessageLookup): Promise<MessageRef | undefined> {
    const row = await this.db.one<{ ref: string }>(
      "SELECT ref FROM message_refs WHERE channel = $1 AND account = $2 AND conversation = $3 AND message_id = $4",
      [lookup.channel, lookup.accountId, lookup.conversationId, lookup.messageId],
    );
    return row ? (JSON.parse(row.ref) as MessageRef) : undefined;
  }
}
