import { writeFileAtomic } from "@chorus/channel-kit/state";
import { SESSIONS_FILE_VERSION, type SessionEntry, type SessionsFile } from "./entry.js";

/** Shortest and longest pause between two writes of the mirror. */
const MIN_INTERVAL_MS = 100;
const MAX_INTERVAL_MS = 5_000;
/** The pause is this many times the last write's duration (a large store is written less often). */
const DUTY = 10;

/**
 * `sessions.json` as a readable mirror of one agent's session entries (same keys as ever): the
 * database is the source of truth; this file is rewritten atomically, at most every
 * 10 × the last write's duration (between 100 ms and 5 s), so a busy gateway with many sessions
 * spends about a tenth of its time on it at most, and a turn never waits for it.
 */
export class SessionsMirror {
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
      Math.max(MIN_INTERVAL_MS, this.#lastMs * DUTY),
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

  #write(): Promise<void> {
    this.#writing ??= (async () => {
      this.#dirty = false;
      const started = performance.now();
      try {
        const sessions: Record<string, SessionEntry> = {};
        for (const entry of this.entries()) sessions[entry.key] = entry;
        const file: SessionsFile = { version: SESSIONS_FILE_VERSION, sessions };
        await writeFileAtomic(this.file, `${JSON.stringify(file)}\n`);
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
