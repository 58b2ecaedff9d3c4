import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

/**
 * One JSON file in the instance's `stateDir`, written atomically (temp file + rename) and
 * serialised, so a crash mid-write never leaves half a file and two writes never interleave.
 */
export class StateFile<T> {
  #writing: Promise<void> = Promise.resolve();

  constructor(
    readonly path: string,
    private readonly empty: () => T,
  ) {}

  /** The stored value, or an empty one when the file does not exist or is unreadable. */
  async read(): Promise<T> {
    try {
      return JSON.parse(await readFile(this.path, "utf8")) as T;
    } catch {
      return this.empty();
    }
  }

  /** Replaces the stored value. */
  write(value: T): Promise<void> {
    const text = `${JSON.stringify(value)}\n`;
    this.#writing = this.#writing.then(async () => {
      await mkdir(dirname(this.path), { recursive: true });
      const temp = `${this.path}.${process.pid}.tmp`;
      await writeFile(temp, text);
      await rename(temp, this.path);
    });
    return this.#writing;
  }
}
