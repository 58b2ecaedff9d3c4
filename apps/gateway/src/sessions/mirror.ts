import { Worker } from "node:worker_threads";
import { SESSIONS_FILE_VERSION, type SessionEntry } from "./entry.js";
import { type MirrorCommand, type MirrorReport, type MirrorWorkerData, runMirrorWorker } from "./mirror-worker.js";

/** Entries of the first full copy sent to the worker between two yields to the event loop (~0.3 ms of serialising). */
const SNAPSHOT_SLICE = 100;

const WORKER_SOURCE = `(${runMirrorWorker.toString()})(require);`;

/**
 * `sessions.json` as a readable mirror of one agent's session entries (same keys as ever): the
 * database is the source of truth. The file is written by a worker thread (`mirror-worker.ts`),
 * atomically, at most every 10 × the last write's duration and within 2 MB/s of disk writes
 * (between 100 ms and 60 s; its writeback competed with the database's commits): a store of
 * 100,000 sessions is a ~40 MB file, and building and writing it on the main thread delayed turns.
 * The main thread only serialises each changed entry (once per version: entries are frozen) and
 * posts it, coalesced per tick. The worker starts on the first change (a home nobody talks to
 * never starts it) with a full copy of the entries, sent in slices; it writes nothing before the
 * copy is complete, so the file never shows a partial store.
 */
export class SessionsMirror {
  readonly #serialised = new WeakMap<SessionEntry, string>();
  #worker: Worker | undefined;
  /** The first full copy still to send, while it is being sent. */
  #snapshot: Iterator<SessionEntry> | undefined;
  /** Keys changed since the last post (their entry is read when posted: gone means deleted). */
  #changedKeys = new Set<string>();
  #posting = false;
  #nextFlush = 0;
  readonly #flushes = new Map<number, () => void>();

  constructor(
    readonly file: string,
    private readonly sessions: ReadonlyMap<string, SessionEntry>,
    private readonly warn: (message: string, error: unknown) => void,
  ) {}

  /** The session under `key` was created, changed or deleted: the mirror shows it soon. */
  changed(key: string): void {
    this.#changedKeys.add(key);
    if (!this.#worker) this.#start();
    if (this.#posting) return;
    this.#posting = true;
    setImmediate(() => this.#post(false));
  }

  /** Writes now what changed (nothing when nothing ever changed). */
  async flush(): Promise<void> {
    if (!this.#worker) return;
    this.#post(true);
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
    this.#snapshot = this.sessions.values();
  }

  /**
   * Posts the next slice of the first full copy while there is one (all of it when `all`), then —
   * once the copy is complete — the entries changed since the last post, as they are now (so in the
   * store's order: the copy walks the live map, which also visits entries created meanwhile).
   */
  #post(all: boolean): void {
    this.#posting = false;
    const worker = this.#worker;
    if (!worker) return;
    const snapshot = this.#snapshot;
    if (snapshot) {
      const put: [string, string][] = [];
      let next = snapshot.next();
      for (; !next.done; next = snapshot.next()) {
        put.push([next.value.key, this.#serialise(next.value)]);
        if (!all && put.length === SNAPSHOT_SLICE) break;
      }
      worker.postMessage({ type: "change", put, deleted: [] } satisfies MirrorCommand);
      if (!next.done) {
        this.#posting = true;
        setImmediate(() => this.#post(false));
        return;
      }
      this.#snapshot = undefined;
      worker.postMessage({ type: "ready" } satisfies MirrorCommand);
    }
    if (this.#changedKeys.size === 0) return;
    const put: [string, string][] = [];
    const deleted: string[] = [];
    for (const key of this.#changedKeys) {
      const entry = this.sessions.get(key);
      if (entry) put.push([key, this.#serialise(entry)]);
      else deleted.push(key);
    }
    this.#changedKeys = new Set();
    worker.postMessage({ type: "change", put, deleted } satisfies MirrorCommand);
  }

  #serialise(entry: SessionEntry): string {
    let text = this.#serialised.get(entry);
    if (text === undefined) {
      text = `${JSON.stringify(entry.key)}:${JSON.stringify(entry)}`;
      if (Object.isFrozen(entry)) this.#serialised.set(entry, text);
    }
    return text;
  }
}
