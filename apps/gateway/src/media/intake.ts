import { createHash, type Hash } from "node:crypto";
import { tooLarge } from "@chorus/channel-kit";
import { SNIFF_BYTES } from "./sniff.js";
import { mediaGarbage } from "./young-garbage.js";

/** What streaming a medium in found: its hash, its size, and its first bytes (for sniffing). */
export interface BlobFacts {
  readonly sha256: string;
  readonly size: number;
  /** Up to `SNIFF_BYTES` from the start. */
  readonly head: Uint8Array;
}

/** How a medium is streamed in: its cap, what errors call it, and when to stop. */
export interface IntakeOptions {
  readonly maxBytes: number;
  /** The medium in an error message (`"report.pdf"`, `The medium`). */
  readonly what: string;
  readonly signal?: AbortSignal | undefined;
}

/**
 * Counts and hashes a medium's bytes as they stream past, keeps its first `SNIFF_BYTES`, and
 * stops with `E_TOO_LARGE` at the first byte past the cap: nothing else of it is kept.
 */
export class Intake {
  readonly #hash: Hash = createHash("sha256");
  readonly #head = new Uint8Array(SNIFF_BYTES);
  #headLength = 0;
  #size = 0;

  constructor(private readonly options: IntakeOptions) {}

  /** Takes one chunk (throws `E_TOO_LARGE` past the cap). */
  take(chunk: Uint8Array): void {
    this.#size += chunk.byteLength;
    if (this.#size > this.options.maxBytes) throw tooLarge(this.options.what, this.options.maxBytes);
    this.#hash.update(chunk);
    if (this.#headLength < SNIFF_BYTES) {
      const part = chunk.subarray(0, SNIFF_BYTES - this.#headLength);
      this.#head.set(part, this.#headLength);
      this.#headLength += part.byteLength;
    }
  }

  /** The facts, once the stream ended. */
  facts(): BlobFacts {
    return { sha256: this.#hash.digest("hex"), size: this.#size, head: this.#head.slice(0, this.#headLength) };
  }
}

/**
 * Reads `stream` chunk by chunk into `write` (awaited before the next read: the source is never
 * read ahead of the sink), through an `Intake`; cancels the source when anything fails.
 */
export async function drain(
  stream: ReadableStream<Uint8Array>,
  options: IntakeOptions,
  write: (chunk: Uint8Array) => Promise<void>,
): Promise<BlobFacts> {
  const intake = new Intake(options);
  const reader = stream.getReader();
  const { signal } = options;
  const abort = () => void reader.cancel(signal?.reason).catch(() => undefined);
  signal?.addEventListener("abort", abort, { once: true });
  try {
    for (;;) {
      signal?.throwIfAborted();
      const { done, value } = await reader.read();
      if (done) break;
      if (value.byteLength === 0) continue;
      intake.take(value);
      await write(value);
      mediaGarbage.streamed(value.byteLength);
    }
    signal?.throwIfAborted();
    return intake.facts();
  } catch (error) {
    await reader.cancel(error).catch(() => undefined);
    throw error;
  } finally {
    signal?.removeEventListener("abort", abort);
    reader.releaseLock();
  }
}

/** Gathers small chunks into pieces of `size` bytes (the last one shorter), for chunked storage. */
export class Rechunker {
  readonly #buffer: Uint8Array;
  #length = 0;

  constructor(size: number) {
    this.#buffer = new Uint8Array(size);
  }

  /** Adds `chunk`; calls `flush` with each full piece (a copy, the buffer is reused). */
  async push(chunk: Uint8Array, flush: (piece: Uint8Array) => Promise<void>): Promise<void> {
    let offset = 0;
    while (offset < chunk.byteLength) {
      const part = chunk.subarray(offset, offset + this.#buffer.byteLength - this.#length);
      this.#buffer.set(part, this.#length);
      this.#length += part.byteLength;
      offset += part.byteLength;
      if (this.#length === this.#buffer.byteLength) await this.end(flush);
    }
  }

  /** Flushes what is left. */
  async end(flush: (piece: Uint8Array) => Promise<void>): Promise<void> {
    if (this.#length === 0) return;
    const piece = this.#buffer.slice(0, this.#length);
    this.#length = 0;
    await flush(piece);
  }
}
