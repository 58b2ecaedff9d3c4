interface Pending<T, R> {
  item: T;
  resolve(result: R): void;
  reject(error: unknown): void;
}

/**
 * Work added within one tick, done as one batch (one transaction, one fsync): the inbox's inbound
 * events and the completions that leave no reply. When a batch of several groups fails, each group
 * is tried again on its own, so one group's failure (an account's refused lease fence) fails only
 * its own items.
 */
export class TickBatch<T, R> {
  #tick: Pending<T, R>[] | undefined;

  constructor(
    /** Does a batch; resolves with one result per item, in order. */
    private readonly run: (items: readonly T[]) => Promise<R[]>,
    /** The group of an item (an account; each item its own group when every item stands alone). */
    private readonly groupOf: (item: T) => string,
  ) {}

  /** Adds an item to this tick's batch; resolves with its result once the batch is done. */
  add(item: T): Promise<R> {
    if (!this.#tick) {
      this.#tick = [];
      setImmediate(() => void this.#flush());
    }
    const tick = this.#tick;
    return new Promise((resolve, reject) => tick.push({ item, resolve, reject }));
  }

  async #flush(): Promise<void> {
    const tick = this.#tick ?? [];
    this.#tick = undefined;
    const groups = new Map<string, Pending<T, R>[]>();
    for (const pending of tick) {
      const key = this.groupOf(pending.item);
      const group = groups.get(key);
      if (group) group.push(pending);
      else groups.set(key, [pending]);
    }
    if (groups.size > 1) {
      let results: R[] | undefined;
      try {
        results = await this.run(tick.map((pending) => pending.item));
      } catch {
        await Promise.all([...groups.values()].map((group) => this.#alone(group)));
        return;
      }
      settle(tick, results);
      return;
    }
    return this.#alone(tick);
  }

  async #alone(pending: readonly Pending<T, R>[]): Promise<void> {
    let results: R[];
    try {
      results = await this.run(pending.map((p) => p.item));
    } catch (error) {
      for (const p of pending) p.reject(error);
      return;
    }
    settle(pending, results);
  }
}

function settle<T, R>(pending: readonly Pending<T, R>[], results: readonly R[]): void {
  for (const [i, p] of pending.entries()) p.resolve(results[i] as R);
}
