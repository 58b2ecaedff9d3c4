import { Worker } from "node:worker_threads";
import { requirePackage } from "../../support/index.js";
import {
  type CheckpointCommand,
  type CheckpointReport,
  type CheckpointWorkerData,
  runCheckpointWorker,
} from "./checkpoint-worker.js";

const WORKER_SOURCE = `(${runCheckpointWorker.toString()})(require);`;

/** Commits after which the worker starts: a start's few writes and a quiet home never start it. */
export const START_AFTER_WRITES = 200;

export interface BackgroundCheckpointsOptions {
  /** Turns the main connection's own checkpoints (in the commit that crosses the threshold) on or off. */
  inline(on: boolean): void;
  /** A failure the operator should hear of (the checkpoints go on in the commits meanwhile). */
  warn(error: Error): void;
  intervalMs?: number;
  idleMs?: number;
  startAfterWrites?: number;
}

/**
 * SQLite's WAL checkpoints on a worker thread instead of inside the main connection's commits.
 * A checkpoint copies the WAL's pages into the database file and syncs it: ~8–15 ms here, on the
 * event loop when it runs in the commit that crosses `wal_autocheckpoint` (every ~600 turns of the
 * dispatch bench, each one a stalled turn and every event behind it).
 *
 * The worker starts after `START_AFTER_WRITES` commits, checkpoints once a second while commits come
 * and ends after a minute without one (so a gateway at rest keeps no thread). While it runs, the main
 * connection's own checkpoints are off; before it is ready, after it ended and when it cannot run,
 * they are on, so the WAL never grows without bound.
 */
export class BackgroundCheckpoints {
  #worker: Worker | undefined;
  #writes = 0;
  /** The worker could not run (its thread failed): the commits checkpoint, as before. */
  #broken = false;
  /** Checkpoints the worker ran. */
  checkpoints = 0;
  /** A worker was started at some point (its connection read the database). */
  started = false;

  constructor(
    readonly file: string,
    private readonly options: BackgroundCheckpointsOptions,
  ) {}

  /** A commit on the main connection. */
  wrote(): void {
    if (this.#worker || this.#broken) return;
    if (++this.#writes >= (this.options.startAfterWrites ?? START_AFTER_WRITES)) this.#start();
  }

  /** The worker runs now. */
  get running(): boolean {
    return this.#worker !== undefined;
  }

  /** Ends the worker (its connection closed first), so the main connection is the last to close. */
  async close(): Promise<void> {
    this.#broken = true;
    const worker = this.#worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
    worker.ref(); // an unreferenced worker would let the process end before it closed its connection
    worker.postMessage({ type: "close" } satisfies CheckpointCommand);
    await exited;
  }

  #start(): void {
    this.#writes = 0;
    this.started = true;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        file: this.file,
        sqlite: requirePackage.resolve("@photostructure/sqlite"),
        intervalMs: this.options.intervalMs ?? 1_000,
        idleMs: this.options.idleMs ?? 60_000,
      } satisfies CheckpointWorkerData,
    });
    worker.on("message", (report: CheckpointReport) => {
      if (report.type === "ready") this.options.inline(false);
      else if (report.type === "checkpointed") this.checkpoints++;
      else if (report.type === "failed")
        this.options.warn(
          Object.assign(new Error(`a background checkpoint of ${this.file} failed: ${report.message}`), {
            code: report.code,
          }),
        );
    });
    worker.on("error", (error) => {
      this.#broken = true;
      this.options.warn(
        new Error(
          `the checkpoint thread of ${this.file} failed (${error.message}): checkpoints run in the commits from now on`,
        ),
      );
    });
    worker.on("exit", () => {
      if (this.#worker !== worker) return;
      this.#worker = undefined;
      this.#writes = 0;
      this.options.inline(true);
    });
    worker.unref(); // after the listeners: adding a "message" listener refs the worker's port again
    this.#worker = worker;
  }
}
