import { AtomicFiles } from "./atomic-file.js";

/**
 * One JSON file in the instance's `stateDir`, written atomically. Saves that pile up while a
 * write runs collapse into one write of the newest state, so a busy group does not queue one
 * file write per message.
 */
export class JsonStateFile<T> {
  readonly #files = new AtomicFiles();
  /** The write in flight, and the one that will run after it with the newest snapshot. */
  #running: Promise<void> | undefined;
  #queued: { snapshot: () => T; done: Promise<void> } | undefined;

  constructor(
    readonly path: string,
    private readonly parse: (raw: unknown) => T,
  ) {}

  /** The stored value (through `parse`), or `parse(undefined)` when the file is missing or unreadable. */
  async read(): Promise<T> {
    let raw: unknown;
    try {
      const text = await this.#files.read(this.path);
      raw = text === undefined ? undefined : JSON.parse(text);
    } catch {
      raw = undefined;
    }
    return this.parse(raw);
  }

  /** Persists what `snapshot()` returns when the write runs; resolves once that state is on disk. */
  save(snapshot: () => T): Promise<void> {
    if (this.#queued) {
      this.#queued.snapshot = snapshot;
      return this.#queued.done;
    }
    if (!this.#running) {
      this.#running = this.#write(snapshot);
      return this.#running;
    }
    const queued = { snapshot, done: Promise.resolve() };
    queued.done = this.#running
      .catch(() => undefined)
      .then(() => {
        this.#queued = undefined;
        this.#running = this.#write(queued.snapshot);
        return this.#running;
      });
    this.#queued = queued;
    return queued.done;
  }

  /** Resolves when every save so far has finished. */
  async flush(): Promise<void> {
    await (this.#queued?.done ?? this.#running)?.catch(() => undefined);
  }

  async #write(snapshot: () => T): Promise<void> {
    try {
      await this.#files.write(this.path, `${JSON.stringify(snapshot())}\n`);
    } finally {
      this.#running = undefined;
    }
  }
}
