import { closeSync, fsyncSync, openSync } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { dirname } from "node:path";

/**
 * Makes commits durable by syncing the WAL file off the event loop, many commits per sync.
 *
 * A commit under `synchronous=NORMAL` has written its WAL frames (a process crash keeps them: they
 * are in the OS's cache) but not synced them; SQLite's `synchronous=FULL` would sync in the commit,
 * blocking the event loop for the disk's fsync (and every statement behind it). Here the commit
 * returns at once and `sync()` resolves when an `fdatasync` of the WAL that started after the commit
 * has finished — the same guarantee as FULL (SQLite itself syncs only the WAL at a WAL commit), with
 * the wait in the thread pool. Commits made while a sync runs share the next one (group commit).
 *
 * The WAL file keeps its inode while the database's connection is open (SQLite deletes it only when
 * the last connection closes), so one descriptor serves every sync.
 */
export class WalSync {
  readonly #walFile: string;
  #handle: Promise<FileHandle> | undefined;
  /** The sync running now, if any. */
  #running: Promise<void> | undefined;
  /** The sync that starts after the running one, shared by every commit made meanwhile. */
  #queued: Promise<void> | undefined;
  /** Syncs started so far (the group commit shows in it: fewer syncs than durable commits). */
  syncs = 0;

  constructor(file: string) {
    this.#walFile = `${file}-wal`;
  }

  /** Resolves once everything committed before this call is on the disk. */
  sync(): Promise<void> {
    if (this.#queued) return this.#queued;
    const running = this.#running;
    if (!running) return this.#start();
    this.#queued = running
      .catch(() => undefined)
      .then(() => {
        this.#queued = undefined;
        return this.#start();
      });
    return this.#queued;
  }

  #start(): Promise<void> {
    const run = this.#datasync().finally(() => {
      if (this.#running === run) this.#running = undefined;
    });
    this.#running = run;
    return run;
  }

  async #datasync(): Promise<void> {
    this.syncs++;
    this.#handle ??= this.#open();
    try {
      await (await this.#handle).datasync();
    } catch (error) {
      this.#handle = undefined; // opened again by the next sync
      throw Object.assign(
        new Error(`could not sync the state database's WAL (${this.#walFile}): ${(error as Error).message}`),
        { code: (error as NodeJS.ErrnoException).code, cause: error },
      );
    }
  }

  /** Opens the WAL (read-write: Windows syncs only writable handles) and, once, syncs its directory entry. */
  async #open(): Promise<FileHandle> {
    const handle = await open(this.#walFile, "r+");
    syncDirectory(dirname(this.#walFile));
    return handle;
  }

  async close(): Promise<void> {
    await this.#queued?.catch(() => undefined);
    await this.#running?.catch(() => undefined);
    const handle = this.#handle;
    this.#handle = undefined;
    await (await handle?.catch(() => undefined))?.close();
  }
}

/** A new file's name reaches the disk with its directory's sync; not possible on Windows (nothing to do there). */
function syncDirectory(directory: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(directory, "r");
    fsyncSync(fd);
  } catch {
    // Windows cannot open a directory; its file system journals the name itself.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
