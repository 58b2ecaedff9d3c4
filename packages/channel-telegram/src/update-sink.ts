import type { InboundEvent, Logger } from "@chorus/core";
import type { Update } from "grammy/types";
import type { ChatAliases } from "./chat-aliases.js";
import { type InboundContext, normaliseUpdate } from "./inbound.js";
import type { Identity } from "./ref.js";
import type { SentMessages } from "./sent-messages.js";

/** Update ids remembered for deduplication; bounded so a long-running instance does not grow. */
const REMEMBERED_UPDATES = 2_000;

/**
 * Where every update goes, from the long poll or the webhook alike: deduplicate by `update_id`
 * (a webhook is redelivered when the answer was slow; a poll repeats after a lost confirmation),
 * record migrations, normalise, emit.
 */
export class UpdateSink {
  readonly #seen = new Set<number>();

  constructor(
    private readonly who: () => Identity,
    private readonly aliases: ChatAliases,
    private readonly sent: SentMessages,
    private readonly emit: (event: InboundEvent) => void,
    private readonly logger: Logger,
  ) {}

  /** Handles one update; false when it was a duplicate. */
  async accept(update: Update): Promise<boolean> {
    if (this.#seen.has(update.update_id)) return false;
    this.#seen.add(update.update_id);
    if (this.#seen.size > REMEMBERED_UPDATES) this.#seen.delete(this.#seen.values().next().value as number);
    const ctx: InboundContext = {
      who: this.who(),
      conversationId: (chatId) => this.aliases.conversationId(chatId),
      sentByBot: (chatId, messageId) => this.sent.has(chatId, messageId),
    };
    const { events, migration } = normaliseUpdate(update, ctx);
    if (migration) {
      await this.aliases.migrate(migration.from, migration.to);
      this.logger.info({ ...migration }, "telegram: group migrated to a supergroup; the session keeps the old id");
    }
    for (const event of events) this.emit(event);
    return true;
  }
}
