import type { ChannelStore, JsonValue } from "@chorus/core";
import { KeyedQueue } from "../collections/keyed-queue.js";

/** Where a message is: what a bot reaction record is keyed by. */
export interface ReactionTarget {
  readonly conversationId: string;
  readonly messageId: string;
}

/** How long the record of a message is kept after the bot last changed its reactions there. */
export const BOT_REACTIONS_TTL_MS = 90 * 24 * 60 * 60 * 1000;

/**
 * One queue per store, shared by every record on it (an instance and its successor after a
 * restart, or two records made by one channel): a message's calls wait for each other whoever made
 * them. A queue keeps a key only while a call on it runs or waits.
 */
const queues = new WeakMap<ChannelStore, KeyedQueue>();

/**
 * The bot reaction record: what the bot itself holds on each message, kept in the channel's store
 * (`botReactions/<conversation>/<message>`). Platforms that cannot list reactions (Telegram,
 * WhatsApp, Signal, Nextcloud, Zalo) need it to clear or replace the bot's own reaction, also
 * after a restart. A reaction call reads it, calls the platform and writes it: run that whole call
 * in `exclusive`, so two calls on one message never interleave and the record stays what the
 * platform shows (DESIGN §3, concurrency).
 */
export class BotReactionRecord {
  constructor(
    private readonly store: ChannelStore,
    private readonly ttlMs: number = BOT_REACTIONS_TTL_MS,
  ) {}

  /** The store key of a message's record. */
  static key(target: ReactionTarget): string {
    return `botReactions/${encodeURIComponent(target.conversationId)}/${encodeURIComponent(target.messageId)}`;
  }

  /**
   * Runs `call` alone for the message: calls on the same message (on this store) run one after
   * another, in the order they were made; other messages go on concurrently. A failed call does not
   * stop the next. Do not nest `exclusive` for the same message inside `call` (it would wait for itself).
   */
  exclusive<T>(target: ReactionTarget, call: () => Promise<T>): Promise<T> {
    let queue = queues.get(this.store);
    if (!queue) {
      queue = new KeyedQueue();
      queues.set(this.store, queue);
    }
    return queue.run(BotReactionRecord.key(target), call);
  }

  /** What the bot holds on the message, in the platform's form, oldest first. */
  async held(target: ReactionTarget): Promise<string[]> {
    return readList(await this.store.get(BotReactionRecord.key(target)));
  }

  /** Records what the bot now holds on the message (an empty list forgets it). */
  async hold(target: ReactionTarget, reactions: readonly string[]): Promise<void> {
    const key = BotReactionRecord.key(target);
    if (reactions.length === 0) await this.store.delete(key);
    else await this.store.set(key, [...reactions], { ttlMs: this.ttlMs });
  }

  /** Changes the record atomically; resolves with what the bot holds afterwards. */
  async change(target: ReactionTarget, change: (held: string[]) => readonly string[]): Promise<string[]> {
    const next = await this.store.update<string[]>(
      BotReactionRecord.key(target),
      (current) => {
        const reactions = [...change(readList(current))];
        return reactions.length === 0 ? undefined : reactions;
      },
      { ttlMs: this.ttlMs },
    );
    return next ?? [];
  }
}

function readList(value: JsonValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}
