import type { FileHandle } from "node:fs/promises";

/**
 * Text into a file through one reused buffer: no string of the whole file is built, and each
 * write hands the disk at most the buffer's size, so a large file costs many short slices of the
 * event loop and little garbage.
 */
export class BufferedWriter {
  readonly #buffer: Buffer;
  #used = 0;

  constructor(
    private readonly handle: FileHandle,
    bytes: number,
  ) {
    this.#buffer = Buffer.allocUnsafe(bytes);
  }

  /**
   * Appends `text` to what the file gets when it fits in the buffer (no waiting, no promise);
   * false when it does not: then `flushThenAdd`.
   */
  add(text: string): boolean {
    const free = this.#buffer.length - this.#used;
    // A UTF-8 character takes at most 3 bytes per UTF-16 unit: most texts fit without being measured.
    if (text.length * 3 > free && Buffer.byteLength(text) > free) return false;
    this.#used += this.#buffer.write(text, this.#used);
    return true;
  }

  /** Writes what the buffer holds, then appends `text` (written at once when longer than the buffer). */
  async flushThenAdd(text: string): Promise<void> {
    await this.flush();
    if (!this.add(text)) await this.#writeAll(Buffer.from(text));
  }

  /** Writes what the buffer holds. */
  async flush(): Promise<void> {
    if (this.#used === 0) return;
    await this.#writeAll(this.#buffer.subarray(0, this.#used));
    this.#used = 0;
  }

  async #writeAll(bytes: Buffer): Promise<void> {
    let written = 0;
    while (written < bytes.length) {
      written += (await this.handle.write(bytes, written, bytes.length - written)).bytesWritten;
    }
  }
}
