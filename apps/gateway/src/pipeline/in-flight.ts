/** Work running per key (a conversation's reaction handling), and what must wait until it ended. */
export class InFlight {
  readonly #running = new Map<string, Promise<void>>();

  /** Adds `work` to what runs under `key`. */
  track(key: string, work: Promise<void>): void {
    const all = Promise.all([this.#running.get(key), work]).then(
      () => undefined,
      () => undefined,
    );
    this.#running.set(key, all);
    void all.finally(() => {
      if (this.#running.get(key) === all) this.#running.delete(key);
    });
  }

  /** Runs `next` at once when nothing runs under `key`, else once what runs now has ended. */
  after(key: string, next: () => void): void {
    const running = this.#running.get(key);
    if (running) void running.then(next);
    else next();
  }
}
