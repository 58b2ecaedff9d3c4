import type { MessagePort } from "node:worker_threads";

/** What the main thread tells the mirror's worker. */
export type MirrorCommand =
  /** Every session's `"key":{…}` text, one per line, in the store's order (`MirrorCopy`): sent first, once; the worker may write from then on. */
  | { type: "copy"; texts: Uint8Array }
  /**
   * Sessions changed since, in order, one per line: the entry's `"key":{…}` text, or `-"key"` when it
   * was deleted. One string rather than an array of pairs: a structured clone of hundreds of small
   * strings cost the main thread ~0.3 ms per post at 100,000 sessions (bench/state.bench.ts).
   */
  | { type: "change"; changes: string }
  /** Write now what changed; answered with `flushed`. */
  | { type: "flush"; id: number };

/** What the worker answers. */
export type MirrorReport =
  | { type: "flushed"; id: number; error?: unknown }
  /** A background write failed (the next change or flush tries again). */
  | { type: "failed"; error: unknown };

/** The worker's fixed inputs. */
export interface MirrorWorkerData {
  file: string;
  version: number;
  /** Shortest and longest pause between two writes, and the pause as a multiple of the last write's duration. */
  minIntervalMs: number;
  maxIntervalMs: number;
  duty: number;
  /** The disk budget: on average the mirror writes at most this many bytes a second. */
  bytesPerSecond: number;
}

/**
 * The body of the `sessions.json` mirror's worker thread. It is started from this function's source
 * text (`new Worker(…, { eval: true })`), so it works the same from the built package and from the
 * sources under test: it closes over nothing and requires what it needs. It keeps every session's
 * text, in the store's order, and rewrites the file atomically (a temp file, fsync, rename, the
 * directory fsynced) at most every `duty` × the last write's duration and within a disk budget (a
 * large file is written less often: its writeback competed with the database's commits) — all off
 * the main thread, so a large store never delays a turn.
 */
export function runMirrorWorker(require: NodeJS.Require): void {
  const { parentPort, workerData } = require("node:worker_threads") as {
    parentPort: MessagePort;
    workerData: MirrorWorkerData;
  };
  const fs = require("node:fs") as typeof import("node:fs");
  const path = require("node:path") as typeof import("node:path");
  const { randomBytes } = require("node:crypto") as typeof import("node:crypto");
  const { file, version, minIntervalMs, maxIntervalMs, duty, bytesPerSecond } = workerData;
  const CHUNK_BYTES = 1 << 20;
  const texts = new Map<string, string>();
  let ready = false;
  let dirty = false;
  let lastMs = 0;
  let lastBytes = 0;
  let timer: NodeJS.Timeout | undefined;

  const write = () => {
    const dir = path.dirname(file);
    const name = path.basename(file);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    for (const left of fs.readdirSync(dir)) {
      if (left.startsWith(`.${name}.`) && left.endsWith(".tmp")) fs.rmSync(path.join(dir, left), { force: true });
    }
    const temp = path.join(dir, `.${name}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
    const fd = fs.openSync(temp, "w", 0o600);
    try {
      let parts = [`{"version":${version},"sessions":{`];
      let bytes = 0;
      let first = true;
      lastBytes = 0;
      for (const text of texts.values()) {
        parts.push(first ? text : `,${text}`);
        first = false;
        bytes += text.length;
        lastBytes += text.length;
        if (bytes >= CHUNK_BYTES) {
          fs.writeSync(fd, parts.join(""));
          parts = [];
          bytes = 0;
        }
      }
      parts.push("}}\n");
      fs.writeSync(fd, parts.join(""));
      fs.fsyncSync(fd);
    } catch (error) {
      fs.closeSync(fd);
      fs.rmSync(temp, { force: true });
      throw error;
    }
    fs.closeSync(fd);
    fs.renameSync(temp, file);
    const dirFd = fs.openSync(dir, "r");
    try {
      fs.fsyncSync(dirFd);
    } finally {
      fs.closeSync(dirFd);
    }
  };

  const writeNow = (): unknown => {
    dirty = false;
    const started = performance.now();
    try {
      write();
      return undefined;
    } catch (error) {
      dirty = true;
      return error;
    } finally {
      lastMs = performance.now() - started;
    }
  };

  const schedule = () => {
    if (!ready || !dirty || timer) return;
    timer = setTimeout(
      () => {
        timer = undefined;
        const error = writeNow();
        if (error !== undefined) parentPort.postMessage({ type: "failed", error } satisfies MirrorReport);
        else schedule();
      },
      Math.min(maxIntervalMs, Math.max(minIntervalMs, lastMs * duty, (lastBytes / bytesPerSecond) * 1000)),
    );
  };

  /** The session's key at the start of its `"key":{…}` line. */
  const keyOf = (line: string): string => {
    let end = 1;
    while (line[end] !== '"') end += line[end] === "\\" ? 2 : 1;
    return JSON.parse(line.slice(0, end + 1)) as string;
  };

  parentPort.on("message", (command: MirrorCommand) => {
    if (command.type === "copy") {
      for (const line of new TextDecoder().decode(command.texts).split("\n")) {
        if (line !== "") texts.set(keyOf(line), line);
      }
      ready = true;
      dirty = true;
      schedule();
    } else if (command.type === "change") {
      for (const line of command.changes.split("\n")) {
        if (line.startsWith("-")) texts.delete(JSON.parse(line.slice(1)) as string);
        else texts.set(keyOf(line), line);
      }
      dirty = true;
      schedule();
    } else {
      if (timer) clearTimeout(timer);
      timer = undefined;
      const error = ready && dirty ? writeNow() : undefined;
      parentPort.postMessage({ type: "flushed", id: command.id, ...(error === undefined ? {} : { error }) });
    }
  });
}
