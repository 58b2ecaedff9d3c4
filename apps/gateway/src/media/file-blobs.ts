import { randomBytes } from "node:crypto";
import { mkdir, open, readdir, rename, rm, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { KeyedQueue } from "@chorus/channel-kit";
import type { SqlDb } from "../state/index.js";
import { makePrivateDir } from "../support/index.js";
import { type Blobs, LEFTOVER_AFTER_MS, type RecordBlob, referenced } from "./blobs.js";
import { fileStream, openForReading, writeAll } from "./file-stream.js";
import { type BlobFacts, drain, type IntakeOptions } from "./intake.js";
import { mediaGarbage } from "./young-garbage.js";

const TEMP_PREFIX = ".tmp-";

/**
 * Media bytes as files, for SQLite: `<home>/media/blobs/<sha256[0..2]>/<sha256>`, owner-only (0600
 * files, 0700 directories). A put streams into a temp file beside them, syncs it, and renames it
 * into place (or drops it when the same bytes are there already); a crash leaves at most a temp
 * file, which `sweep` removes. Puts and releases of one hash run one at a time.
 */
export class FileBlobs implements Blobs {
  readonly #locks = new KeyedQueue();
  #ready: Promise<void> | undefined;

  constructor(
    private readonly db: SqlDb,
    /** `<home>/media/blobs`. */
    readonly dir: string,
  ) {}

  pathOf(sha256: string): string {
    return join(this.dir, sha256.slice(0, 2), sha256);
  }

  async put(stream: ReadableStream<Uint8Array>, options: IntakeOptions, record: RecordBlob): Promise<BlobFacts> {
    await this.#prepare();
    const temp = join(this.dir, `${TEMP_PREFIX}${randomBytes(9).toString("base64url")}`);
    try {
      const file = await open(temp, "wx", 0o600);
      let facts: BlobFacts;
      try {
        facts = await drain(stream, options, (chunk) => writeAll(file, chunk));
        await file.sync();
      } finally {
        await file.close();
      }
      const work = await record(facts);
      await this.#locks.run(facts.sha256, async () => {
        const target = this.pathOf(facts.sha256);
        const placed = await this.#place(temp, target);
        try {
          await this.db.tx(work);
        } catch (error) {
          if (placed && !(await referenced(this.db, facts.sha256))) await rm(target, { force: true });
          throw error;
        }
      });
      return facts;
    } finally {
      await rm(temp, { force: true });
    }
  }

  open(sha256: string, _size: number, from = 0): ReadableStream<Uint8Array> {
    return fileStream(
      () => openForReading(this.pathOf(sha256), "The medium"),
      from,
      (bytes) => mediaGarbage.streamed(bytes),
    );
  }

  release(sha256: string): Promise<void> {
    return this.#locks.run(sha256, async () => {
      if (!(await referenced(this.db, sha256))) await rm(this.pathOf(sha256), { force: true });
    });
  }

  async sweep(now: number): Promise<number> {
    let removed = 0;
    const old = async (path: string) => now - (await stat(path)).mtimeMs > LEFTOVER_AFTER_MS;
    for (const entry of await readdir(this.dir, { withFileTypes: true }).catch(() => [])) {
      const path = join(this.dir, entry.name);
      if (entry.isFile() && entry.name.startsWith(TEMP_PREFIX) && (await old(path))) {
        await rm(path, { force: true });
        removed++;
      } else if (entry.isDirectory() && /^[0-9a-f]{2}$/.test(entry.name)) {
        // Bytes renamed into place by a put whose commit a crash cut off: no medium names them.
        for (const name of await readdir(path).catch(() => [] as string[])) {
          if (!/^[0-9a-f]{64}$/.test(name) || !(await old(join(path, name)))) continue;
          await this.#locks.run(name, async () => {
            if (await referenced(this.db, name)) return;
            await rm(join(path, name), { force: true });
            removed++;
          });
        }
      }
    }
    return removed;
  }

  /** Moves a synced temp file to `target` (made durable by syncing its directory); false when the bytes were there. */
  async #place(temp: string, target: string): Promise<boolean> {
    const exists = await stat(target).then(
      () => true,
      () => false,
    );
    if (exists) return false;
    await mkdir(dirname(target), { recursive: true, mode: 0o700 });
    await rename(temp, target);
    await syncDir(dirname(target));
    return true;
  }

  #prepare(): Promise<void> {
    this.#ready ??= Promise.resolve()
      .then(() => {
        makePrivateDir(dirname(this.dir));
        makePrivateDir(this.dir);
      })
      .catch((error: unknown) => {
        this.#ready = undefined;
        throw error;
      });
    return this.#ready;
  }
}

/** Makes a rename in `dir` durable (where the platform can sync a directory). */
async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, "r").catch(() => undefined);
  if (!handle) return;
  try {
    await handle.sync();
  } catch {
    // Some file systems (and Windows) cannot sync a directory: the rename is as durable as they make it.
  } finally {
    await handle.close();
  }
}
