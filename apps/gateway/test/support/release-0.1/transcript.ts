import { mkdir, open, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { CorruptFileError, ioError, writeFileAtomic } from "@chorus/channel-kit/state";
import { ChorusError } from "@chorus/core";
import { parseTranscriptLine, serializeEntries, type TranscriptEntry } from "../../../src/testing/index.js";
import { repairTornTail } from "./transcript-tail.js";

export interface ReadTranscriptOptions {
  /** Only the last `limit` entries. */
  limit?: number;
}

/**
 * Session transcripts as JSONL, one `<dir>/<sessionId>.jsonl` per session (DESIGN §5). Each append
 * is one write and an fsync, so a crash leaves at most a torn last line, which reading skips and
 * the next append cuts off.
 */
export class TranscriptStore {
  /** Per-session chain so appends, rewrites and removals of one file never interleave. */
  private readonly chains = new Map<string, Promise<unknown>>();

  constructor(readonly dir: string) {}

  /** The transcript file of a session. */
  pathOf(sessionId: string): string {
    if (typeof sessionId !== "string" || !/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(sessionId)) {
      throw new ChorusError("E_INVALID_INPUT", `"${String(sessionId)}" is not a session id`, {
        hint: "session ids are letters, digits, - and _ (a UUID)",
      });
    }
    return join(this.dir, `${sessionId}.jsonl`);
  }

  /** Appends `entries` to the session's transcript with one write and an fsync. */
  async append(sessionId: string, entries: readonly TranscriptEntry[]): Promise<void> {
    const path = this.pathOf(sessionId);
    const data = serializeEntries(path, entries);
    if (data.length === 0) return this.serial(sessionId, async () => undefined);
    return this.serial(sessionId, async () => {
      try {
        const handle = await this.openForAppend(path);
        try {
          await repairTornTail(handle);
          const { bytesWritten } = await handle.write(data);
          if (bytesWritten !== data.length) {
            throw new Error(`only ${bytesWritten} of ${data.length} bytes were written`);
          }
          await handle.sync();
        } finally {
          await handle.close();
        }
      } catch (error) {
        throw ioError("append to", path, error);
      }
    });
  }

  /** The session's entries (the last `limit`), skipping a torn last line; `[]` when there is no transcript. */
  async read(sessionId: string, options: ReadTranscriptOptions = {}): Promise<TranscriptEntry[]> {
    const path = this.pathOf(sessionId);
    const limit = options.limit;
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) {
      throw new ChorusError("E_INVALID_INPUT", `limit must be a non-negative integer, got ${limit}`);
    }
    let tail: { text: string; firstLine: number | undefined };
    try {
      tail = limit === undefined ? { text: await readFile(path, "utf8"), firstLine: 1 } : await readTail(path, limit);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw ioError("read", path, error);
    }
    const lines = tail.text.split("\n");
    const entries: TranscriptEntry[] = [];
    for (const [index, line] of lines.entries()) {
      if (line.trim() === "") continue;
      const isLast = index === lines.length - 1;
      try {
        entries.push(parseTranscriptLine(line));
      } catch (error) {
        // The last line without its newline is an append cut short by a crash: not part of the transcript.
        if (isLast) break;
        throw new CorruptFileError(path, (error as Error).message, {
          ...(tail.firstLine !== undefined ? { line: tail.firstLine + index } : {}),
          hint: "remove or fix that line; every line must be one JSON transcript entry",
          cause: error,
        });
      }
    }
    return limit === undefined ? entries : entries.slice(Math.max(0, entries.length - limit));
  }

  /** Replaces the whole transcript atomically (compaction). */
  async rewrite(sessionId: string, entries: readonly TranscriptEntry[]): Promise<void> {
    const path = this.pathOf(sessionId);
    const data = serializeEntries(path, entries);
    return this.serial(sessionId, () => writeFileAtomic(path, data));
  }

  /** Deletes the transcript; no error when there is none. */
  async remove(sessionId: string): Promise<void> {
    const path = this.pathOf(sessionId);
    return this.serial(sessionId, async () => {
      try {
        await rm(path, { force: true });
      } catch (error) {
        throw ioError("remove", path, error);
      }
    });
  }

  private async openForAppend(path: string) {
    try {
      return await open(path, "a+", 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      await mkdir(this.dir, { recursive: true });
      return await open(path, "a+", 0o600);
    }
  }

  private serial<T>(sessionId: string, task: () => Promise<T>): Promise<T> {
    const previous = this.chains.get(sessionId) ?? Promise.resolve();
    const next = previous.then(task, task);
    const settled = next.catch(() => undefined);
    this.chains.set(sessionId, settled);
    void settled.then(() => {
      if (this.chains.get(sessionId) === settled) this.chains.delete(sessionId);
    });
    return next;
  }
}

const TAIL_CHUNK = 64 * 1024;

/**
 * The end of a transcript holding at least `limit` complete lines, read backwards in chunks so a
 * long conversation costs the same per turn as a short one. `firstLine` is undefined when the
 * file was not read from its start (line numbers are then unknown).
 */
async function readTail(path: string, limit: number): Promise<{ text: string; firstLine: number | undefined }> {
  const handle = await open(path, "r");
  try {
    const { size } = await handle.stat();
    const chunks: Buffer[] = [];
    let position = size;
    let newlines = 0;
    while (position > 0 && newlines <= limit + 1) {
      const length = Math.min(TAIL_CHUNK, position);
      position -= length;
      const chunk = Buffer.alloc(length);
      await handle.read(chunk, 0, length, position);
      chunks.unshift(chunk);
      for (const byte of chunk) if (byte === 0x0a) newlines++;
    }
    const bytes = Buffer.concat(chunks);
    if (position === 0) return { text: bytes.toString("utf8"), firstLine: 1 };
    // Started mid-file: drop the partial first line (a newline byte never occurs inside UTF-8 sequences).
    return { text: bytes.subarray(bytes.indexOf(0x0a) + 1).toString("utf8"), firstLine: undefined };
  } finally {
    await handle.close();
  }
}
