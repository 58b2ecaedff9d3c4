/** A map that forgets its least recently written entries beyond `limit`. */
export class BoundedMap<K, V> {
  readonly #map = new Map<K, V>();

  constructor(private readonly limit: number) {}

  get(key: K): V | undefined {
    return this.#map.get(key);
  }

  has(key: K): boolean {
    return this.#map.has(key);
  }

  /** Stores `value` as the newest entry, forgetting the oldest ones over the limit. */
  set(key: K, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, value);
    while (this.#map.size > this.limit) this.#map.delete(this.#map.keys().next().value as K);
  }

  delete(key: K): void {
    this.#map.delete(key);
  }

  get size(): number {
    return this.#map.size;
  }

  /** Entries, oldest first. */
  entries(): IterableIterator<[K, V]> {
    return this.#map.entries();
  }
}

/** A set that forgets its oldest members beyond `limit` (for deduplication). */
export class BoundedSet<T> {
  readonly #map: BoundedMap<T, true>;

  constructor(limit: number) {
    this.#map = new BoundedMap(limit);
  }

  has(value: T): boolean {
    return this.#map.has(value);
  }

  /** Adds `value`; false when it was already there. */
  add(value: T): boolean {
    if (this.#map.has(value)) return false;
    this.#map.set(value, true);
    return true;
  }
}
