import { ChorusError } from "@chorus/core";

function checkCapacity(capacity: number, what: string): number {
  if (!Number.isInteger(capacity) || capacity < 1) {
    throw new ChorusError("E_INVALID_INPUT", `${what} capacity must be a positive integer, got ${capacity}`);
  }
  return capacity;
}

/**
 * A map that keeps the `capacity` most recently used entries: `set` and `get` refresh an entry,
 * and the least recently used one goes when a new one would exceed the capacity.
 */
export class BoundedMap<K, V> {
  readonly #entries = new Map<K, V>();
  readonly capacity: number;

  constructor(capacity: number) {
    this.capacity = checkCapacity(capacity, "BoundedMap");
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: K): V | undefined {
    if (!this.#entries.has(key)) return undefined;
    const value = this.#entries.get(key) as V;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  /** Reads without refreshing. */
  peek(key: K): V | undefined {
    return this.#entries.get(key);
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  set(key: K, value: V): this {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    // A Map iterates in insertion order: the first key is the least recently used one.
    while (this.#entries.size > this.capacity) this.#entries.delete(this.#entries.keys().next().value as K);
    return this;
  }

  delete(key: K): boolean {
    return this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }

  /** Entries from the least to the most recently used. */
  entries(): IterableIterator<[K, V]> {
    return this.#entries.entries();
  }

  values(): IterableIterator<V> {
    return this.#entries.values();
  }
}

/** A set that keeps the `capacity` most recently added members. */
export class BoundedSet<T> {
  readonly #members: BoundedMap<T, true>;

  constructor(capacity: number) {
    this.#members = new BoundedMap(checkCapacity(capacity, "BoundedSet"));
  }

  get size(): number {
    return this.#members.size;
  }

  /** Adds `value` (refreshing it when present); true when it was not a member. */
  add(value: T): boolean {
    const fresh = !this.#members.has(value);
    this.#members.set(value, true);
    return fresh;
  }

  has(value: T): boolean {
    return this.#members.has(value);
  }

  delete(value: T): boolean {
    return this.#members.delete(value);
  }
}
