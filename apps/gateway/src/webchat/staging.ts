import { mkdir, open, rm } from "node:fs/promises";
import { join } from "node:path";
import { capStream } from "@chorus/channel-kit";
import { ChorusError } from "@chorus/core";
import { fileStream, writeAll } from "../media/index.js";
import { MEDIUM_ID } from "./media-store.js";

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

  /**
   * Appends `source` (at most `maxBytes`) to the file of `id`, created if needed, chunk by chunk
   * (the next read only once the file took the last); returns the bytes appended.
   */
  async append(id: string, source: ReadableStream<Uint8Array>, maxBytes: number, what: string): Promise<number> {
    const file = await open(this.#path(id), "a", 0o600);
    let written = 0;
    try {
      for await (const chunk of capStream(source, maxBytes, what)) {
        await writeAll(file, chunk);
        written += chunk.byteLength;
      }
    } finally {
      await file.close();
    }
    return written;
  }

  /** The staged bytes of `id` (none when nothing was appended: the file is made empty), read as the consumer reads. */
  read(id: string): ReadableStream<Uint8Array> {
    return fileStream(() => open(this.#path(id), "a+", 0o600));
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
