import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** Reads a JSON file from `stateDir`, or undefined when it does not exist yet. */
export async function readState(stateDir: string, file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(join(stateDir, file), "utf8")) as unknown;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Writes a JSON file into `stateDir` atomically (temp file, then rename), readable by the owner only. */
export async function writeState(stateDir: string, file: string, value: unknown): Promise<void> {
  await mkdir(stateDir, { recursive: true });
  const path = join(stateDir, file);
  await writeFile(`${path}.tmp`, JSON.stringify(value), { mode: 0o600 });
  await rename(`${path}.tmp`, path);
}
