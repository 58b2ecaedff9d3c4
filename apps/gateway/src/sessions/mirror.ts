import { randomBytes } from "node:crypto";
import { mkdir, open, readdir, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { syncDirectory } from "@chorus/channel-kit/state";
import { BufferedWriter } from "./buffered-writer.js";
import { SESSIONS_FILE_VERSION, type SessionEntry } from "./entry.js";

/**
 * Bytes of the file handed to the disk at a time, with a yield to the event loop in between: a
 * large store is written in slices of tens of microseconds, so a turn never waits long behind it.
 */
const SLICE_BYTES = 32 * 1024;

/** Shortest and longest pause between two writes of the mirror. */
const MIN_INTERVAL_MS = 100;
const MAX_INTERVAL_MS = 5_000;
/** The pause is this many times the last write's duration (a large store is written less often). */
const DUTY = 10;

/**
 * `sessions.json` as a readable mirror of one agent's session entries (same keys as ever): the
 * database is the source of truth; this file is rewritten atomically (in slices, see
 * `#writeInSlices`), at most every 10 × the last write's duration (between 100 ms and 5 s), so a busy gateway with many sessions
 * spends about a tenth of its time on it at most, and a turn never waits for it.
 */
export class SessionsMirror {
  /** Each entry's `"key":{…}` text: entries are frozen and replaced on change, so one serialisation per version. */
  readonly #serialised = new WeakMap<SessionEntry, string>();
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> | undefined;
  #dirty = false;
  #lastMs = 0;

  constructor(
    readonly file: string,
    private readonly entries: () => Iterable<SessionEntry>,
    private readonly warn: (message: string, error: unknown) => void,
  ) {}

  /** Something changed: the mirror is rewritten soon. */
  changed(): void {
    this.#dirty = true;
    if (this.#timer || this.#writing) return;
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        void this.#write();
      },
      Math.min(MAX_INTERVAL_MS, Math.max(MIN_INTERVAL_MS, this.#lastMs * DUTY)),
    );
    this.#timer.unref();
  }

  /** Writes now what changed (and waits for a write under way). */
  async flush(): Promise<void> {
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    while (this.#writing) await this.#writing;
    if (this.#dirty) await this.#write();
  }

  /**
   * Writes the file atomically (a temp file, fsync, rename, the directory fsynced), `SLICE_BYTES`
   * at a time through one reused buffer, so 100,000 sessions cost many short slices of the event
   * loop rather than one long one, and no string of the whole file; only entries changed since the
   * last write are serialised again. A temp file a crash left behind is removed first.
   */
  async #writeInSlices(): Promise<void> {
    const dir = dirname(this.file);
    const name = basename(this.file);
    await mkdir(dir, { recursive: true });
    for (const left of await readdir(dir).catch(() => [] as string[])) {
      if (left.startsWith(`.${name}.`) && left.endsWith(".tmp")) await rm(join(dir, left), { force: true });
    }
    const temp = join(dir, `.${name}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
    const handle = await open(temp, "w", 0o600);
    try {
      const out = new BufferedWriter(handle, SLICE_BYTES);
      out.add(`{"version":${SESSIONS_FILE_VERSION},"sessions":{`);
      let first = true;
      for (const entry of [...this.entries()]) {
        if (!first && !out.add(",")) await out.flushThenAdd(",");
        first = false;
        const text = this.#serialise(entry);
        if (!out.add(text)) await out.flushThenAdd(text);
      }
      if (!out.add("}}\n")) await out.flushThenAdd("}}\n");
      await out.flush();
      await handle.sync();
    } catch (error) {
      await handle.close().catch(() => undefined);
      await rm(temp, { force: true });
      throw error;
    }
    await handle.close();
    await rename(temp, this.file);
    await syncDirectory(dir);
  }

  #serialise(entry: SessionEntry): string {
    let text = this.#serialised.get(entry);
    if (text === undefined) {
      text = `${JSON.stringify(entry.key)}:${JSON.stringify(entry)}`;
      if (Object.isFrozen(entry)) this.#serialised.set(entry, text);
    }
    return text;
  }

  #write(): Promise<void> {
    this.#writing ??= (async () => {
      this.#dirty = false;
      const started = performance.now();
      try {
        await this.#writeInSlices();
      } catch (error) {
        this.warn(`could not write the sessions mirror ${this.file}`, error);
      } finally {
        this.#lastMs = performance.now() - started;
        this.#writing = undefined;
        if (this.#dirty) this.changed();
      }
    })();
    return this.#writing;
  }
}
