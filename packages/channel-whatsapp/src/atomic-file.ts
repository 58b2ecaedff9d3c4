import { mkdir, open, readFile, rename, rm, unlink } from "node:fs/promises";
import { dirname } from "node:path";

let sequence = 0;

/**
 * Writes, reads and removes files so that a crash never leaves half a file: a write goes to a
 * temp file that is flushed to disk and then renamed over the target. Operations on one path
 * run one after the other (a read waits for the writes queued before it); different paths run
 * in parallel. Credentials are secrets, so files are created readable by the owner only.
 */
export class AtomicFiles {
  readonly #queues = new Map<string, Promise<unknown>>();

  /** The file's text, or undefined when it does not exist. */
  read(path: string): Promise<string | undefined> {
    return this.#serialise(path, async () => {
      try {
        return await readFile(path, "utf8");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw error;
      }
    });
  }

  /**
   * Replaces the file's content. The directory entry is made durable by `syncDirectory`, which
   * a caller writing many files calls once at the end (`write` alone does it with `sync: true`).
   */
  write(path: string, text: string, options: { sync?: boolean } = {}): Promise<void> {
    return this.#serialise(path, async () => {
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      const temp = `${path}.${process.pid}.${++sequence}.tmp`;
      const handle = await open(temp, "w", 0o600);
      try {
        await handle.writeFile(text, "utf8");
        await handle.sync();
      } finally {
        await handle.close();
      }
      try {
        await rename(temp, path);
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
      if (options.sync === true) await syncDirectory(dirname(path));
    });
  }

  /** Deletes the file; a missing file is fine. */
  remove(path: string): Promise<void> {
    return this.#serialise(path, async () => {
      try {
        await unlink(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      }
    });
  }

  /** Resolves when every operation queued so far has finished. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#queues.values()]);
  }

  #serialise<T>(path: string, run: () => Promise<T>): Promise<T> {
    const previous = this.#queues.get(path) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(run);
    this.#queues.set(path, next);
    const forget = () => {
      if (this.#queues.get(path) === next) this.#queues.delete(path);
    };
    next.then(forget, forget);
    return next;
  }
}

/** Flushes a directory's entries (renames, deletions) to disk; a no-op where directories cannot be opened. */
export async function syncDirectory(path: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(path, "r");
    await handle.sync();
  } catch (error) {
    // Windows cannot open a directory for fsync; the rename itself is still atomic there.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EISDIR" && code !== "EPERM" && code !== "EACCES" && code !== "EINVAL") throw error;
  } finally {
    await handle?.close();
  }
}
