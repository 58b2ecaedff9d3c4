import type { MessagePort } from "node:worker_threads";

/** What the main thread tells the checkpoint worker. */
export type CheckpointCommand = { type: "close" };

/** What the checkpoint worker reports. */
export type CheckpointReport =
  /** Its connection is open: the main connection may stop checkpointing in its commits. */
  | { type: "ready" }
  /** A checkpoint ran: `frames` in the WAL, `copied` of them now in the database file. */
  | { type: "checkpointed"; frames: number; copied: number }
  /** A checkpoint failed (the next one tries again); said once until one succeeds. */
  | { type: "failed"; message: string; code?: string | undefined }
  /** Nothing was written for `idleMs`: the worker closes its connection and ends. */
  | { type: "idle" };

/** The worker's fixed inputs. */
export interface CheckpointWorkerData {
  /** The database file. */
  file: string;
  /** The resolved path of the SQLite package the main thread uses (the same native library). */
  sqlite: string;
  /** How often it looks for new commits and checkpoints them. */
  intervalMs: number;
  /** It ends after this long without a commit. */
  idleMs: number;
}

/**
 * The body of the WAL checkpoint's worker thread, started from this function's source text
 * (`new Worker(…, { eval: true })`, as the sessions mirror's), so it closes over nothing and
 * requires what it needs. It opens its own connection to the database and, every `intervalMs` in
 * which another connection committed (`PRAGMA data_version` changed), runs a PASSIVE checkpoint:
 * it copies the committed WAL frames into the database file and syncs it, without waiting for or
 * blocking the writer. SQLite coordinates the two connections (same process, same library).
 */
export function runCheckpointWorker(require: NodeJS.Require): void {
  const { parentPort, workerData } = require("node:worker_threads") as {
    parentPort: MessagePort;
    workerData: CheckpointWorkerData;
  };
  const { file, sqlite, intervalMs, idleMs } = workerData;
  const { DatabaseSync } = require(sqlite) as typeof import("@photostructure/sqlite");
  const db = new DatabaseSync(file);
  // Stated, not left to the build's default: a checkpoint syncs the WAL before it and the database after it.
  db.exec("PRAGMA synchronous = NORMAL");
  const version = db.prepare("PRAGMA data_version");
  const checkpoint = db.prepare("PRAGMA wal_checkpoint(PASSIVE)");
  const report = (message: CheckpointReport) => parentPort.postMessage(message);

  // Unknown at first: the first tick checkpoints what was committed before the worker started.
  let seen: unknown;
  let lastWrite = Date.now();
  let failing = false;
  let closed = false;

  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(timer);
    db.close();
    parentPort.close();
  };

  const tick = () => {
    try {
      const now = version.get()?.data_version;
      if (now === seen) {
        if (Date.now() - lastWrite < idleMs) return;
        report({ type: "idle" });
        close();
        return;
      }
      seen = now;
      lastWrite = Date.now();
      const result = checkpoint.get() as { busy: number; log: number; checkpointed: number };
      failing = false;
      report({ type: "checkpointed", frames: result.log, copied: result.checkpointed });
    } catch (error) {
      if (failing) return;
      failing = true;
      const { message, code } = error as { message: string; code?: string };
      report({ type: "failed", message, code });
    }
  };

  const timer = setInterval(tick, intervalMs);
  parentPort.on("message", (command: CheckpointCommand) => {
    if (command.type === "close") close();
  });
  report({ type: "ready" });
}
