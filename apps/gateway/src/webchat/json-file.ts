import { readFile } from "node:fs/promises";
import { setCorruptFileAside, writeFileAtomic } from "@chorus/channel-kit/state";
import { ChorusError, type Logger } from "@chorus/core";
import type { z } from "zod";

export interface JsonFileOptions {
  /** How long changes are collected before one write; default 50 ms. */
  delayMs?: number;
  logger: Logger;
}

/**
 * A JSON document on disk, written atomically (temp file + rename) and coalesced: many changes
 * in a burst cost one write of the latest snapshot.
 */
export class CoalescedJsonFile<T> {
  readonly #path: string;
  readonly #delayMs: number;
  readonly #logger: Logger;
  #snapshot: (() => T) | undefined;
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> | undefined;
  #dirty = false;

  constructor(path: string, options: JsonFileOptions) {
    this.#path = path;
    this.#delayMs = options.delayMs ?? 50;
    this.#logger = options.logger;
  }

  get path(): string {
    return this.#path;
  }

  /**
   * Reads and validates the file; undefined when it does not exist. A file that is not valid is
   * moved aside to `<name>.corrupt-<timestamp>` (and logged) so the next write starts clean.
   */
  async read(schema: z.ZodType<T>): Promise<T | undefined> {
    let text: string;
    try {
      text = await readFile(this.#path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw new ChorusError("E_PLATFORM", `cannot read ${this.#path}: ${(error as Error).message}`, { cause: error });
    }
    let problem: string;
    try {
      const parsed = schema.safeParse(JSON.parse(text));
      if (parsed.success) return parsed.data;
      problem = parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
    } catch (error) {
      problem = `not JSON (${(error as Error).message})`;
    }
    const aside = await setCorruptFileAside(this.#path);
    this.#logger.warn({ file: this.#path, movedTo: aside, problem }, "state file is not valid; starting empty");
    return undefined;
  }

  /** Schedules a write of what `snapshot` returns at write time. */
  schedule(snapshot: () => T): void {
    this.#snapshot = snapshot;
    this.#dirty = true;
    if (this.#timer || this.#writing) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#drain().catch((error: unknown) => {
        this.#logger.warn({ file: this.#path, err: error }, "could not write state; will retry on the next change");
      });
    }, this.#delayMs);
    this.#timer.unref();
  }

  /** Writes pending changes now; resolves when the file on disk is current. */
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
    this.#writing = (async () => {
      while (this.#dirty && this.#snapshot) {
        this.#dirty = false;
        try {
          await this.#write(JSON.stringify(this.#snapshot()));
        } catch (error) {
          this.#dirty = true;
          throw error;
        }
      }
    })();
    try {
      await this.#writing;
    } finally {
      this.#writing = undefined;
    }
  }

  async #write(text: string): Promise<void> {
    try {
      await writeFileAtomic(this.#path, text);
    } catch (error) {
      throw new ChorusError("E_PLATFORM", `cannot write ${this.#path}: ${(error as Error).message}`, {
        cause: error,
        hint: "Check that the state directory exists and is writable.",
      });
    }
  }
}
