import type { JsonValue } from "./message-ref.js";

/** How long a stored entry lives. */
export interface StoreSetOptions {
  /** Forget the entry this many milliseconds after it was written; kept until deleted when absent. */
  readonly ttlMs?: number;
}

/** One entry of a `list` answer. */
export interface StoreEntry<V extends JsonValue = JsonValue> {
  readonly key: string;
  readonly value: V;
}

/**
 * Host-owned persistence of small JSON state for one channel account (DESIGN §3): the bot
 * reaction record, cursors, sent-message records, secrets the plugin generates. The host (the
 * gateway, or testkit) keeps it crash-safe; an entry it cannot read back is set aside with a
 * warning naming it, never a crash and never a silent reset.
 *
 * Keys are strings of at most 512 characters; use `/` to group them (`botReactions/<chat>/<id>`),
 * so `list("botReactions/")` finds a group. Values are JSON of at most 64 KiB. Every write has
 * reached the store's disk or database when its promise resolves.
 */
export interface ChannelStore {
  /** The value under `key`, or undefined. */
  get<V extends JsonValue = JsonValue>(key: string): Promise<V | undefined>;
  /** Writes `value` under `key`. */
  set(key: string, value: JsonValue, options?: StoreSetOptions): Promise<void>;
  /** Removes `key`; true when it existed. */
  delete(key: string): Promise<boolean>;
  /** Every entry whose key starts with `prefix`, in key order. */
  list<V extends JsonValue = JsonValue>(prefix: string): Promise<StoreEntry<V>[]>;
  /**
   * Reads, changes and writes one entry atomically: no other write to `key` comes in between.
   * `change` is synchronous and may run more than once; returning undefined deletes the entry.
   * Resolves with the value written.
   */
  update<V extends JsonValue = JsonValue>(
    key: string,
    change: (current: V | undefined) => V | undefined,
    options?: StoreSetOptions,
  ): Promise<V | undefined>;
}

/** The longest key a `ChannelStore` accepts. */
export const MAX_STORE_KEY_LENGTH = 512;
/** The largest value (as JSON text, in bytes) a `ChannelStore` accepts. */
export const MAX_STORE_VALUE_BYTES = 64 * 1024;
