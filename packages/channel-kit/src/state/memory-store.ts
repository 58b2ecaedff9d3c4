import type { ChannelStore, JsonValue, StoreEntry, StoreSetOptions } from "@chorus/core";
import { alive, checkStoreKey, expiryOf, type StoredEntry, storeValueText } from "./store-values.js";

/** A `ChannelStore` in memory: for tests and tools that need no persistence. */
export class MemoryStore implements ChannelStore {
  readonly #entries = new Map<string, StoredEntry>();

  constructor(private readonly now: () => number = Date.now) {}

  async get<V extends JsonValue = JsonValue>(key: string): Promise<V | undefined> {
    const entry = this.#entries.get(checkStoreKey(key));
    return alive(entry, this.now()) ? (JSON.parse(entry.json) as V) : undefined;
  }

  async set(key: string, value: JsonValue, options: StoreSetOptions = {}): Promise<void> {
    this.#write(checkStoreKey(key), value, options);
  }

  async delete(key: string): Promise<boolean> {
    const entry = this.#entries.get(checkStoreKey(key));
    this.#entries.delete(key);
    return alive(entry, this.now());
  }

  async list<V extends JsonValue = JsonValue>(prefix: string): Promise<StoreEntry<V>[]> {
    const now = this.now();
    return [...this.#entries]
      .filter(([key, entry]) => key.startsWith(prefix) && alive(entry, now))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, entry]) => ({ key, value: JSON.parse(entry.json) as V }));
  }

  async update<V extends JsonValue = JsonValue>(
    key: string,
    change: (current: V | undefined) => V | undefined,
    options: StoreSetOptions = {},
  ): Promise<V | undefined> {
    // No await before the write: the read, the change and the write happen in one turn, so
    // concurrent updates of one key cannot lose each other's changes.
    const entry = this.#entries.get(checkStoreKey(key));
    const next = change(alive(entry, this.now()) ? (JSON.parse(entry.json) as V) : undefined);
    if (next === undefined) this.#entries.delete(key);
    else this.#write(key, next, options);
    return next === undefined ? undefined : (JSON.parse(JSON.stringify(next)) as V);
  }

  #write(key: string, value: JsonValue, options: StoreSetOptions): void {
    const json = storeValueText(key, value);
    const expiresAt = expiryOf(options.ttlMs, this.now());
    this.#entries.set(key, expiresAt === undefined ? { json } : { json, expiresAt });
  }
}
