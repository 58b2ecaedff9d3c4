import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** The last event sequence a memory channel account processed, persisted in its state dir. */
export class CursorStore {
  readonly #file: string;

  constructor(private readonly stateDir: string) {
    this.#file = join(stateDir, "cursor.json");
  }

  async load(): Promise<number> {
    try {
      const parsed = JSON.parse(await readFile(this.#file, "utf8")) as { seq?: unknown };
      return typeof parsed.seq === "number" && Number.isInteger(parsed.seq) && parsed.seq >= 0 ? parsed.seq : 0;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
      throw error;
    }
  }

  /** Writes atomically: a crash leaves the old or the new cursor, never a torn file. */
  async save(seq: number): Promise<void> {
    await mkdir(this.stateDir, { recursive: true });
    const temp = `${this.#file}.${process.pid}.tmp`;
    await writeFile(temp, JSON.stringify({ seq }));
    await rename(temp, this.#file);
  }
}
