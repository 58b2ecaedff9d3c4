import { ChorusError } from "@chorus/core";

/** Remembers recent event ids (bounded LRU) so a platform's redelivery is handled once. */
export class EventDeduper {
  private readonly seen = new Map<string, true>();

  constructor(readonly capacity: number = 10_000) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new ChorusError("E_INVALID_INPUT", `EventDeduper capacity must be a positive integer, got ${capacity}`);
    }
  }

  /** How many ids are remembered now. */
  get size(): number {
    return this.seen.size;
  }

  /** True the first time `id` is seen, false while it is still remembered; seeing it again refreshes it. */
  firstTime(id: string): boolean {
    if (this.seen.has(id)) {
      this.seen.delete(id);
      this.seen.set(id, true);
      return false;
    }
    this.seen.set(id, true);
    if (this.seen.size > this.capacity) {
      const oldest = this.seen.keys().next();
      if (!oldest.done) this.seen.delete(oldest.value);
    }
    return true;
  }
}
