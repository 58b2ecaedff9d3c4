import { checkStoreKey, storeValueText } from "@chorus/channel-kit/state";
import { type ChannelStore, ChorusError, type JsonValue, type StoreEntry, type StoreSetOptions } from "@chorus/core";
import type { KvTable } from "./kv-table.js";

/** The `kv` scope of one channel account's store. */
export function storeScope(channel: string, accountId: string): string {
  return `store:${channel}:${accountId}`;
}

function expiryOf(ttlMs: number | undefined, now: number): number | undefined {
  if (ttlMs === undefined) return undefined;
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) {
    throw new ChorusError("E_INVALID_INPUT", `store ttlMs must be a positive number of milliseconds, got ${ttlMs}`);
  }
  return now + ttlMs;
}

/**
 * A channel account's `ctx.store` on the state layer (SQLite or PostgreSQL): every write is
 * committed when its promise resolves; `update` is one locked transaction.
 */
export class DbChannelStore implements ChannelStore {
  constructor(
    private readonly kv: KvTable,
    readonly scope: string,
    private readonly now: () => number = Date.now,
  ) {}

  async get<V extends JsonValue = JsonValue>(key: string): Promise<V | undefined> {
    const text = await this.kv.get(this.scope, checkStoreKey(key), this.now());
    return text === undefined ? undefined : (JSON.parse(text) as V);
  }

  async set(key: string, value: JsonValue, options: StoreSetOptions = {}): Promise<void> {
    checkStoreKey(key);
    const text = storeValueText(key, value);
    await this.kv.set(this.scope, key, text, expiryOf(options.ttlMs, this.now()));
  }

  async delete(key: string): Promise<boolean> {
    return this.kv.delete(this.scope, checkStoreKey(key), this.now());
  }

  async list<V extends JsonValue = JsonValue>(prefix: string): Promise<StoreEntry<V>[]> {
    const rows = await this.kv.list(this.scope, prefix, this.now());
    return rows.map((row) => ({ key: row.key, value: JSON.parse(row.value) as V }));
  }

  async update<V extends JsonValue = JsonValue>(
    key: string,
    change: (current: V | undefined) => V | undefined,
    options: StoreSetOptions = {},
  ): Promise<V | undefined> {
    checkStoreKey(key);
    const expiresAt = expiryOf(options.ttlMs, this.now());
    return this.kv.update(this.scope, key, async (sql) => {
      const text = await this.kv.get(this.scope, key, this.now(), sql);
      const next = change(text === undefined ? undefined : (JSON.parse(text) as V));
      if (next === undefined) {
        await sql.run("DELETE FROM kv WHERE scope = $1 AND key = $2", [this.scope, key]);
        return undefined;
      }
      const written = storeValueText(key, next);
      await this.kv.set(this.scope, key, written, expiresAt, sql);
      return JSON.parse(written) as V;
    });
  }
}
