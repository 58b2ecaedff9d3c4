import { createReceiver, type Receiver } from "@chorus/channel-kit";
import { ChorusError, type InboundEvent, type Logger, type RefScope } from "@chorus/core";
import type { ChatAliases } from "./chat-aliases.js";
import { normalizeUpdate } from "./inbound.js";
import type { BotUser } from "./mentions.js";
import { readUpdate, updateKind } from "./wire.js";

/** Who the running bot is: what normalizing an update needs. */
export interface RunningBot {
  scope: RefScope;
  bot: BotUser;
}

/** What the receiver of one account needs. */
export interface TelegramReceiverOptions {
  /** The running bot; undefined before `start()` and after `stop()`. */
  running(): RunningBot | undefined;
  aliases: ChatAliases;
  /** `ctx.emit`: resolves once the gateway committed the event. */
  emit(event: InboundEvent): Promise<void>;
  logger: Logger;
  /** `ctx.signal`. */
  signal: AbortSignal;
}

/**
 * Where every update goes, from the long poll or the webhook alike, on the kit's receiver: read
 * it (one it cannot read is a warning and acknowledged: Telegram would only send it again),
 * record a group's migration, normalize, emit, and say whether Telegram may be told it arrived.
 * Telegram delivers again whatever was not acknowledged (`redelivery: "platform"`): an update
 * stays ahead of the `getUpdates` offset, and a webhook answered with a non-2xx is retried
 * ("we will repeat the request and give up after a reasonable amount of attempts", Bot API,
 * `setWebhook`). No deduplication here: event ids derive from `update_id`, and the gateway drops
 * a repeated one.
 */
export function createTelegramReceiver(options: TelegramReceiverOptions): Receiver<unknown> {
  const { aliases, logger } = options;
  return createReceiver<unknown>({
    channel: "telegram",
    logger,
    emit: options.emit,
    redelivery: "platform",
    signal: options.signal,
    async normalize(payload) {
      const read = readUpdate(payload);
      if ("problem" in read) {
        throw new Error(`${read.updateId === undefined ? "an update" : `update ${read.updateId}`}: ${read.problem}`);
      }
      const running = options.running();
      // Between stop and start: not acknowledged, so Telegram keeps the update for the next run.
      if (!running) throw new ChorusError("E_DISABLED", "Telegram is not started", { retryable: true });
      const context = { ...running, conversationId: (chatId: string) => aliases.conversationId(chatId) };
      const { events, migration } = normalizeUpdate(read.update, context);
      if (migration) {
        await recordMigration(aliases, migration.from, migration.to);
        logger.info({ ...migration }, "telegram: group migrated to a supergroup; the session keeps the old id");
      }
      if (events.length === 0 && !migration) {
        logger.debug({ updateId: read.update.update_id, kind: updateKind(read.update) }, "telegram: no event");
      }
      return events;
    },
  });
}

/** Records a migration; a store that fails is a failure for now (the update comes again), not an unreadable update. */
async function recordMigration(aliases: ChatAliases, from: string, to: string): Promise<void> {
  try {
    await aliases.migrate(from, to);
  } catch (error) {
    throw new ChorusError("E_PLATFORM", `could not record the migration of chat ${from} to ${to}`, {
      retryable: true,
      cause: error,
    });
  }
}
