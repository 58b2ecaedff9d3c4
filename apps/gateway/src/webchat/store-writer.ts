import { type ChannelStore, isChorusError, type JsonValue, type Logger } from "@chorus/core";

export interface StoreWriterOptions {
  /** How long changes are collected before they are written; default 50 ms. */
  delayMs?: number;
  logger: Logger;
}

/** What to write under a key when its turn comes: the current value, or undefined to delete it. */
export type Snapshot = () => JsonValue | undefined;

/**
 * Writes the hub's changes to the channel's store in the background, coalesced: a key changed
 * many times in a burst is written once, with its value at write time. `flush` waits until the
 * store holds every change made so far.
 */
export class StoreWriter {
  readonly #store: ChannelStore;
  readonly #delayMs: number;
  readonly #logger: Logger;
  readonly #pending = new Map<string, Snapshot>();
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> | undefined;

  constructor(store: ChannelStore, options: StoreWriterOptions) {
    this.#store = store;
    this.#delayMs = options.delayMs ?? 50;
    this.#logger = options.logger;
  }

  /** Keys changed and not written yet. */
  get pending(): number {
    return this.#pending.size;
  }

  /** Schedules a write of `key` with what `snapshot` returns at write time. */
  schedule(key: string, snapshot: Snapshot): void {
    this.#pending.set(key, snapshot);
    if (!this.#writing) this.#arm();
  }

  #arm(): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#drain().catch((error: unknown) => {
        this.#logger.warn({ err: error }, "webchat: could not write its state; will retry on the next change");
      });
    }, this.#delayMs);
    this.#timer.unref();
  }

  /** Writes pending changes now; resolves once the store has them all, rejects when one cannot be written. */
  async flush(): Promise<void> {
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    if (this.#writing) await this.#writing.catch(() => undefined);
    await this.#drain();
  }

  async #drain(): Promise<void> {
    if (this.#writing) return this.#writing;
    let failed = false;
    this.#writing = (async () => {
      for (const [key, snapshot] of this.#pending) {
        this.#pending.delete(key);
        try {
          await this.#write(key, snapshot());
        } catch (error) {
          // A value the store refuses (too large) is refused again next time: say so and go on.
          if (isChorusError(error) && error.code === "E_INVALID_INPUT") {
            this.#logger.warn({ err: error, key }, "webchat: the store refused an entry; it is not kept");
            continue;
          }
          if (!this.#pending.has(key)) this.#pending.set(key, snapshot);
          failed = true;
          throw error;
        }
      }
    })();
    try {
      await this.#writing;
    } finally {
      this.#writing = undefined;
      // Changes made while the last write was under way; after a failure they wait for the next change.
      if (!failed && this.#pending.size > 0) this.#arm();
    }
  }

  async #write(key: string, value: JsonValue | undefined): Promise<void> {
    if (value === undefined) await this.#store.delete(key);
    else await this.#store.set(key, value);
  }
}
