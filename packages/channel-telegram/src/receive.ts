import { createReceiver, type Receipt, type Receiver, type Redelivery } from "@chorus/channel-kit";
import { ChorusError, type InboundEvent, type Logger, type RefScope } from "@chorus/core";
import { AlbumParts, albumKeyOf, mergeAlbum } from "./album.js";
import type { ChatAliases } from "./chat-aliases.js";
import { type InboundContext, normalizeUpdate } from "./inbound.js";
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
  /**
   * `platform` (default): Telegram delivers again what was not acknowledged. `keep`: for album items
   * the webhook already answered (they wait in the store, see `AlbumBuffer`), emitted until committed.
   */
  redelivery?: Redelivery;
}

/**
 * Where every update goes, from the long poll or the webhook alike, on the kit's receiver: read
 * it (one it cannot read is a warning and acknowledged: Telegram would only send it again),
 * record a group's migration, normalize, emit, and say whether Telegram may be told it arrived.
 * Telegram delivers again whatever was not acknowledged (`redelivery: "platform"`): an update
 * stays ahead of the `getUpdates` offset, and a webhook answered with a non-2xx is retried
 * ("we will repeat the request and give up after a reasonable amount of attempts", Bot API,
 * `setWebhook`). No deduplication here: event ids derive from `update_id`, and the gateway drops
 * a repeated one. The items of an album come as one delivery (`AlbumParts`): one message event.
 */
export function createTelegramReceiver(options: TelegramReceiverOptions): Receiver<unknown> {
  const { aliases, logger } = options;
  const context = (): InboundContext => {
    const running = options.running();
    // Between stop and start: not acknowledged, so Telegram keeps the update for the next run.
    if (!running) throw new ChorusError("E_DISABLED", "Telegram is not started", { retryable: true });
    return { ...running, conversationId: (chatId: string) => aliases.conversationId(chatId) };
  };
  return createReceiver<unknown>({
    channel: "telegram",
    logger,
    emit: options.emit,
    redelivery: options.redelivery ?? "platform",
    signal: options.signal,
    async normalize(payload) {
      if (payload instanceof AlbumParts) return albumEvent(payload, context(), logger);
      const read = readUpdate(payload);
      if ("problem" in read) {
        throw new Error(`${read.updateId === undefined ? "an update" : `update ${read.updateId}`}: ${read.problem}`);
      }
      const { events, migration } = normalizeUpdate(read.update, context());
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

/**
 * Hands a batch of updates to the receiver at once, each album as one delivery (`AlbumParts`, in
 * the place of its first item): every item of an album gets the album's receipt, so the offset
 * moves past all of them or none.
 */
export function receiveUpdates(receiver: Receiver<unknown>, updates: readonly unknown[]): Promise<Receipt[]> {
  const albums = new Map<string, unknown[]>();
  for (const update of updates) {
    const key = albumKeyOf(update);
    if (key !== undefined) albums.set(key, [...(albums.get(key) ?? []), update]);
  }
  const pending = new Map<string, Promise<Receipt>>();
  return Promise.all(
    updates.map((update) => {
      const key = albumKeyOf(update);
      if (key === undefined) return receiver.receive(update);
      const album = pending.get(key) ?? receiver.receive(new AlbumParts(albums.get(key) ?? [update]));
      pending.set(key, album);
      return album;
    }),
  );
}

/** The one message event of an album's items; an item it cannot read is left out with a warning. */
function albumEvent(album: AlbumParts, context: InboundContext, logger: Logger): InboundEvent | undefined {
  const events: InboundEvent[] = [];
  const problems: string[] = [];
  for (const part of album.updates) {
    const read = readUpdate(part);
    if ("problem" in read) {
      problems.push(`${read.updateId === undefined ? "an update" : `update ${read.updateId}`}: ${read.problem}`);
      continue;
    }
    events.push(...normalizeUpdate(read.update, context).events);
  }
  if (problems.length === album.updates.length) throw new Error(problems.join("; "));
  for (const problem of problems)
    logger.warn({ problem }, `telegram: left out an album item it cannot read: ${problem}`);
  return mergeAlbum(events);
}
