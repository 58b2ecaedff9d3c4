import { BoundedMap } from "./bounded.js";

export interface CachedLookupOptions<V> {
  /** Fetches the value of a key from the platform. */
  load(key: string): Promise<V>;
  /** How long a loaded value is served from memory. */
  ttlMs: number;
  /** Most keys kept; the least recently used go first. */
  capacity?: number;
  now?: () => number;
}

/**
 * A value per id fetched from the platform (a user's name, a group's title and members), kept for
 * `ttlMs`; concurrent lookups of one id share one request, and a failed request is not kept.
 */
export class CachedLookup<V> {
  readonly #values: BoundedMap<string, { value: V; at: number }>;
  readonly #loading = new Map<string, Promise<V>>();
  readonly #now: () => number;

  constructor(private readonly options: CachedLookupOptions<V>) {
    this.#values = new BoundedMap(options.capacity ?? 5_000);
    this.#now = options.now ?? Date.now;
  }

  /** The value, from memory while fresh, else loaded (one request per key at a time). */
  get(key: string): Promise<V> {
    const cached = this.peek(key);
    if (cached !== undefined) return Promise.resolve(cached);
    const pending = this.#loading.get(key);
    if (pending) return pending;
    const loading = this.options.load(key).then((value) => {
      if (this.#loading.get(key) === loading) this.#values.set(key, { value, at: this.#now() });
      return value;
    });
    this.#loading.set(key, loading);
    const forget = () => {
      if (this.#loading.get(key) === loading) this.#loading.delete(key);
    };
    loading.then(forget, forget);
    return loading;
  }

  /** The fresh cached value, without loading. */
  peek(key: string): V | undefined {
    const entry = this.#values.get(key);
    if (!entry) return undefined;
    if (this.#now() - entry.at < this.options.ttlMs) return entry.value;
    this.#values.delete(key);
    return undefined;
  }

  /** Stores a value learned another way (an event carried it). */
  set(key: string, value: V): void {
    this.#values.set(key, { value, at: this.#now() });
  }

  /** Forgets a key (the platform said it changed); a load in flight is not kept either. */
  invalidate(key: string): void {
    this.#values.delete(key);
    this.#loading.delete(key);
  }
}
