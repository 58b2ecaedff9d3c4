import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** The last write queued per file: writes to one file run in call order, so the newest state lands last. */
const queues = new Map<string, Promise<void>>();
let tempCounter = 0;

/** Reads a JSON file from `stateDir`, or undefined when it does not exist yet. */
export async function readState(stateDir: string, file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(join(stateDir, file), "utf8")) as unknown;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * Writes a JSON file into `stateDir` atomically (a temp file of its own, then rename), readable by
 * the owner only; concurrent writes to one file never share a temp file or land out of order.
 */
export function writeState(stateDir: string, file: string, value: unknown): Promise<void> {
  const path = join(stateDir, file);
  const text = JSON.stringify(value);
  const write = async () => {
    await mkdir(stateDir, { recursive: true });
    const temp = `${path}.${process.pid}.${++tempCounter}.tmp`;
    await writeFile(temp, text, { mode: 0o600 });
    await rename(temp, path);
  };
  const queued = (queues.get(path) ?? Promise.resolve()).then(write, write);
  const settled = queued.catch(() => undefined);
  queues.set(path, settled);
  void settled.then(() => {
    if (queues.get(path) === settled) queues.delete(path);
  });
  return queued;
}
