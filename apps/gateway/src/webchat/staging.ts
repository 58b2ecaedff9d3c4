import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { capStream } from "@chorus/channel-kit";
import { ChorusError } from "@chorus/core";
import { MEDIUM_ID } from "./media-store.js";

/** Bytes a file is read in. */
const READ_CHUNK = 64 * 1024;

/**
 * Uploads under way, staged on this gateway's disk (the page's socket and its pieces reach one
 * gateway): `<dir>/<mediumId>.part`, private (0600), written piece by piece and read back as one
 * stream into the media store once complete.
 */
export class UploadStaging {
  constructor(readonly dir: string) {}

  /** Creates the directory (0700), dropping what an earlier run left (its uploads died with it). */
  async ready(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
  }

  /** Appends `source` (at most `maxBytes`) to the file of `id`, created if needed; returns the bytes appended. */
  async append(id: string, source: ReadableStream<Uint8Array>, maxBytes: number, what: string): Promise<number> {
    return pour(capStream(source, maxBytes, what), this.#path(id));
  }

  /** The staged bytes of `id` (none when nothing was appended), read as the consumer reads. */
  read(id: string): ReadableStream<Uint8Array> {
    return fileSource(this.#path(id), true);
  }

  /** Deletes the staged file of `id`. */
  async remove(id: string): Promise<void> {
    await rm(this.#path(id), { force: true });
  }

  #path(id: string): string {
    if (!MEDIUM_ID.test(id))
      throw new ChorusError("E_INVALID_INPUT", `"${id.slice(0, 40)}" is not a webchat upload id`);
    return join(this.dir, `${id}.part`);
  }
}

/** A file's bytes as a stream, read only as fast as the stream is read; with `missingIsEmpty`, no file reads as none. */
export function fileSource(path: string, missingIsEmpty = false): ReadableStream<Uint8Array> {
  const file = createReadStream(path, { highWaterMark: READ_CHUNK });
  const chunks = file[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  return new ReadableStream<Uint8Array>(
    {
      pull: async (controller) => {
        try {
          const { done, value } = await chunks.next();
          if (done) return controller.close();
          controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
        } catch (error) {
          if (missingIsEmpty && (error as NodeJS.ErrnoException).code === "ENOENT") return controller.close();
          controller.error(error);
        }
      },
      cancel: () => {
        file.destroy();
      },
    },
    { highWaterMark: 0 },
  );
}

/** Appends `source` to `path` chunk by chunk, reading the next only once the file took the last. */
async function pour(source: ReadableStream<Uint8Array>, path: string): Promise<number> {
  const file = createWriteStream(path, { flags: "a", mode: 0o600 });
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
