import type { InboundEvent, Logger, RefScope } from "@chorus/core";
import type { ChatAliases } from "./chat-aliases.js";
import { normalizeUpdate } from "./inbound.js";
import type { BotUser } from "./mentions.js";
import { readUpdate, updateKind } from "./wire.js";

/** Who the running bot is: what normalizing an update needs. */
export interface RunningBot {
  scope: RefScope;
  bot: BotUser;
}

/**
 * Where every update goes, from the long poll or the webhook alike: read it (a payload that is
 * not an update the plugin understands leaves a warning naming what is wrong), record
 * migrations, normalize, emit and wait for the gateway's commit. No deduplication here: event ids derive from `update_id`, and the
 * gateway drops a repeated event id (a redelivered webhook, a poll repeated after a lost
 * confirmation).
 */
export class UpdateSink {
  constructor(
    private readonly running: () => RunningBot,
    private readonly aliases: ChatAliases,
    private readonly emit: (event: InboundEvent) => Promise<void>,
    private readonly logger: Logger,
  ) {}

  /**
   * Handles one update as Telegram sent it; false when it could not be read. Resolves once the
   * gateway committed its events (only then may the update be confirmed); rejects when it could not.
   */
  async accept(payload: unknown): Promise<boolean> {
    const read = readUpdate(payload);
    if ("problem" in read) {
      const which = read.updateId === undefined ? "an update" : `update ${read.updateId}`;
      this.logger.warn(
        { updateId: read.updateId, problem: read.problem },
        `telegram: ignored ${which} it could not read (${read.problem})`,
      );
      return false;
    }
    const { scope, bot } = this.running();
    const context = { scope, bot, conversationId: (chatId: string) => this.aliases.conversationId(chatId) };
    const { events, migration } = normalizeUpdate(read.update, context);
    if (migration) {
      await this.aliases.migrate(migration.from, migration.to);
      this.logger.info({ ...migration }, "telegram: group migrated to a supergroup; the session keeps the old id");
    }
    if (events.length === 0 && !migration) {
      this.logger.debug({ updateId: read.update.update_id, kind: updateKind(read.update) }, "telegram: no event");
    }
    await Promise.all(events.map((event) => this.emit(event)));
    return true;
  }
}
