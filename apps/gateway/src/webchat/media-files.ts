import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { appendFile, mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { capStream } from "@chorus/channel-kit";
import { ChorusError } from "@chorus/core";

/** A webchat medium's id: `wm_` and 22 URL-safe characters (128 random bits). */
export const MEDIUM_ID = /^wm_[A-Za-z0-9_-]{22}$/u;

/** A new medium id. */
export function newMediumId(): string {
  return `wm_${randomBytes(16).toString("base64url")}`;
}

/** Bytes a file is read in. */
const READ_CHUNK = 64 * 1024;

/**
 * The webchat's media as files in its state dir: `<dir>/<id>` once complete, `<dir>/<id>.part`
 * while an upload is under way. Written and read as streams, never whole; files are private (0600).
 */
export class MediaFiles {
  #bytesRead = 0;

  constructor(readonly dir: string) {}

  /** Bytes read out of media files so far (downloads and the page's requests). */
  get bytesRead(): number {
    return this.#bytesRead;
  }

  /** Creates the directory (0700) if needed. */
  async ready(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
  }

  /**
   * Streams `source` into the new file of `id` (through a `.part` file, renamed when complete);
   * past `maxBytes` it stops with `E_TOO_LARGE` (`what` names the medium) and keeps nothing.
   * Returns the bytes written.
   */
  async write(id: string, source: ReadableStream<Uint8Array>, maxBytes: number, what: string): Promise<number> {
    const part = this.#path(id, true);
    try {
      const written = await this.#pour(capStream(source, maxBytes, what), part, "wx");
      await rename(part, this.#path(id));
      return written;
    } catch (error) {
      await rm(part, { force: true });
      throw error;
    }
  }

  /** Appends `source` (at most `maxBytes`) to the `.part` file of `id`, created if needed; returns the bytes appended. */
  async append(id: string, source: ReadableStream<Uint8Array>, maxBytes: number, what: string): Promise<number> {
    return this.#pour(capStream(source, maxBytes, what), this.#path(id, true), "a");
  }

  /** Makes the `.part` file of `id` (empty if nothing was appended) the medium's file. */
  async finish(id: string): Promise<void> {
    const part = this.#path(id, true);
    await appendFile(part, "", { mode: 0o600 });
    await rename(part, this.#path(id));
  }

  /** The size of the medium's complete file, or undefined when there is none. */
  async size(id: string): Promise<number | undefined> {
    try {
      const info = await stat(this.#path(id));
      return info.isFile() ? info.size : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * The medium's bytes from `start` to `end` (inclusive; default: all), read as the consumer reads;
   * `signal` aborts the reading.
   */
  open(id: string, range: { start?: number; end?: number } = {}, signal?: AbortSignal): ReadableStream<Uint8Array> {
    const file = createReadStream(this.#path(id), { ...range, highWaterMark: READ_CHUNK });
    signal?.addEventListener("abort", () => file.destroy(signal.reason as Error), { once: true });
    const chunks = file[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    return new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          try {
            const { done, value } = await chunks.next();
            if (done) return controller.close();
            this.#bytesRead += value.byteLength;
            controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
          } catch (error) {
            controller.error(signal?.aborted ? signal.reason : notKept(id, error));
          }
        },
        cancel: () => {
          file.destroy();
        },
      },
      { highWaterMark: 0 },
    );
  }

  /** Deletes the medium's files (complete or not). */
  async remove(id: string): Promise<void> {
    await Promise.all([rm(this.#path(id), { force: true }), rm(this.#path(id, true), { force: true })]);
  }

  /** Deletes every file whose medium `keep` does not name (unfinished ones included); returns how many. */
  async sweep(keep: (id: string) => boolean): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return 0;
    }
    const gone = names.filter((name) => name.endsWith(".part") || !MEDIUM_ID.test(name) || !keep(name));
    await Promise.all(gone.map((name) => rm(join(this.dir, name), { force: true, recursive: true })));
    return gone.length;
  }

  #path(id: string, part = false): string {
    if (!MEDIUM_ID.test(id))
      throw new ChorusError("E_INVALID_INPUT", `"${id.slice(0, 40)}" is not a webchat medium id`);
    return join(this.dir, part ? `${id}.part` : id);
  }

  /** Writes `source` to `path` chunk by chunk, reading the next only once the file took the last. */
  async #pour(source: ReadableStream<Uint8Array>, path: string, flags: "wx" | "a"): Promise<number> {
    const file = createWriteStream(path, { flags, mode: 0o600 });
    const failed = new Promise<never>((_, reject) => file.once("error", reject));
    failed.catch(() => undefined);
    let written = 0;
    try {
      await Promise.race([once(file, "open"), failed]);
      for await (const chunk of source) {
        written += chunk.byteLength;
        if (!file.write(chunk)) await Promise.race([once(file, "drain"), failed]);
      }
      await Promise.race([new Promise<void>((resolve) => file.end(resolve)), failed]);
      return written;
    } catch (error) {
      file.destroy();
      throw error;
    }
  }
}

function notKept(id: string, cause: unknown): ChorusError {
  if ((cause as { code?: unknown })?.code === "ENOENT") {
    return new ChorusError("E_MESSAGE_NOT_FOUND", `webchat medium ${id} is no longer kept`, { cause });
  }
  return new ChorusError("E_PLATFORM", `reading webchat medium ${id} failed`, { cause, retryable: true });
}
