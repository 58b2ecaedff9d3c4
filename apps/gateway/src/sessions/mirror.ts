import { Worker } from "node:worker_threads";
import { SESSIONS_FILE_VERSION, type SessionEntry } from "./entry.js";
import { MirrorCopy, mirrorText } from "./mirror-copy.js";
import { type MirrorCommand, type MirrorReport, type MirrorWorkerData, runMirrorWorker } from "./mirror-worker.js";

/**
 * Changes are posted to the worker at most this often: it writes at most every 100 ms anyway, and
 * a post per turn woke it (on the other core) ~1,000 times a second under load.
 */
const POST_DELAY_MS = 50;

const WORKER_SOURCE = `(${runMirrorWorker.toString()})(require);`;

/**
 * `sessions.json` as a readable mirror of one agent's session entries (same keys as ever): the
 * database is the source of truth. The file is written by a worker thread (`mirror-worker.ts`),
 * atomically, at most every 10 × the last write's duration and within 2 MB/s of disk writes
 * (between 100 ms and 60 s; its writeback competed with the database's commits): a store of
 * 100,000 sessions is a ~40 MB file, and building and writing it on the main thread delayed turns.
 * The worker starts on the first change (a home nobody talks to never starts it) with a full copy
 * of the entries, handed over in one buffer (`MirrorCopy`: built as the store opened, from the
 * database's texts, so the first turns do not pay for serialising every entry); it writes nothing
 * before it has the copy, so the file never shows a partial store. After that the main thread
 * only serialises each changed entry (in the tick after the change) and posts the changes every 50 ms.
 */
export class SessionsMirror {
  #worker: Worker | undefined;
  /** The full copy built when the store opened, until the worker's first start takes it. */
  #firstCopy: Uint8Array | undefined;
  /** Keys changed since the last serialising (their entry is read then: gone means deleted). */
  #changedKeys = new Set<string>();
  #serialising = false;
  /** Changes not posted yet, in the order of their first change: each key's line as the worker reads it (see `MirrorCommand`). */
  #pending = new Map<string, string>();
  #postTimer: NodeJS.Timeout | undefined;
  #nextFlush = 0;
  readonly #flushes = new Map<number, () => void>();

  /** `firstCopy`: the entries of `sessions` as they are now (`MirrorCopy`); else the first start builds it. */
  constructor(
    readonly file: string,
    private readonly sessions: ReadonlyMap<string, SessionEntry>,
    private readonly warn: (message: string, error: unknown) => void,
    firstCopy?: Uint8Array,
  ) {
    this.#firstCopy = firstCopy;
  }

  /** The session under `key` was created, changed or deleted: the mirror shows it soon. */
  changed(key: string): void {
    this.#changedKeys.add(key);
    if (!this.#worker) this.#start();
    this.#postTimer ??= setTimeout(() => this.#post(), POST_DELAY_MS).unref();
    if (this.#serialising) return;
    // In the next tick, not in the change's own (a turn's commit): the turn goes on to send its reply first.
    this.#serialising = true;
    setImmediate(() => this.#serialise());
  }

  /** The changed entries' mirror texts, as the entries are now. */
  #serialise(): void {
    this.#serialising = false;
    for (const key of this.#changedKeys) {
      const entry = this.sessions.get(key);
      this.#pending.set(key, entry ? mirrorText(entry) : `-${JSON.stringify(key)}`);
    }
    this.#changedKeys.clear();
  }

  /** Writes now what changed (nothing when nothing ever changed). */
  async flush(): Promise<void> {
    if (!this.#worker) return;
    this.#post();
    const worker = this.#worker;
    const id = ++this.#nextFlush;
    worker.ref(); // a flush at shutdown must not let the process end before the file is written
    try {
      await new Promise<void>((resolve) => {
        this.#flushes.set(id, resolve);
        worker.postMessage({ type: "flush", id } satisfies MirrorCommand);
      });
    } finally {
      if (this.#flushes.size === 0) worker.unref();
    }
  }

  /** Writes what changed and stops the worker. */
  async close(): Promise<void> {
    await this.flush();
    const worker = this.#worker;
    this.#worker = undefined;
    await worker?.terminate();
  }

  #start(): void {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        file: this.file,
        version: SESSIONS_FILE_VERSION,
        minIntervalMs: 100,
        maxIntervalMs: 60_000,
        duty: 10,
        bytesPerSecond: 2 * 1024 * 1024,
      } satisfies MirrorWorkerData,
    });
    worker.on("message", (report: MirrorReport) => {
      if (report.type === "failed") this.warn(`could not write the sessions mirror ${this.file}`, report.error);
      else {
        if (report.error !== undefined) this.warn(`could not write the sessions mirror ${this.file}`, report.error);
        this.#flushes.get(report.id)?.();
        this.#flushes.delete(report.id);
      }
    });
    worker.on("error", (error) => this.warn(`the sessions mirror's worker for ${this.file} failed`, error));
    worker.on("exit", () => {
      if (this.#worker !== worker) return;
      // Gone (an error, above): the next change starts a new one with a full copy.
      this.#worker = undefined;
      for (const resolve of this.#flushes.values()) resolve();
      this.#flushes.clear();
    });
    worker.unref(); // after the listeners: adding a "message" listener refs the worker's port again
    this.#worker = worker;
    // A later start (after an error or `close`) copies the entries as they are then, at once.
    const texts = this.#firstCopy ?? MirrorCopy.of(this.sessions.values());
    this.#firstCopy = undefined;
    worker.postMessage({ type: "copy", texts } satisfies MirrorCommand, [texts.buffer as ArrayBuffer]);
  }

  /** Posts the changes not posted yet. */
  #post(): void {
    clearTimeout(this.#postTimer);
    this.#postTimer = undefined;
    this.#serialise();
    const worker = this.#worker;
    if (!worker || this.#pending.size === 0) return;
    worker.postMessage({ type: "change", changes: [...this.#pending.values()].join("\n") } satisfies MirrorCommand);
    this.#pending = new Map();
  }
}
