import { constants } from "node:fs";
import { copyFile, rename } from "node:fs/promises";
import { ChorusError } from "@chorus/core";

/** A state file that exists but cannot be read back (bad JSON, wrong shape, torn line in the middle). */
export class CorruptFileError extends ChorusError {
  override readonly name = "CorruptFileError";
  readonly path: string;
  readonly line: number | undefined;

  constructor(path: string, problem: string, options: { line?: number; hint?: string; cause?: unknown } = {}) {
    const where = options.line === undefined ? path : `${path} line ${options.line}`;
    super("E_INVALID_INPUT", `${where} is corrupt: ${problem}`, {
      retryable: false,
      hint: options.hint ?? "fix the file by hand, or move it away to start from empty",
      details: options.line === undefined ? { path } : { path, line: options.line },
      cause: options.cause,
    });
    this.path = path;
    this.line = options.line;
  }
}

/** `<path>.corrupt-<timestamp>`: where a corrupt state file is kept for inspection. */
export function corruptCopyPath(path: string, now: Date = new Date()): string {
  return `${path}.corrupt-${now.toISOString().replace(/[:.]/g, "-")}`;
}

/**
 * Moves (or, with `keepOriginal`, copies) a corrupt file to `<path>.corrupt-<timestamp>`, never
 * overwriting an earlier copy; returns where it went.
 */
export async function setCorruptFileAside(
  path: string,
  options: { keepOriginal?: boolean; now?: Date } = {},
): Promise<string> {
  const base = corruptCopyPath(path, options.now);
  for (let attempt = 0; ; attempt++) {
    const target = attempt === 0 ? base : `${base}-${attempt}`;
    try {
      // COPYFILE_EXCL refuses to overwrite; for a move, copy exclusively then rename over the copy.
      await copyFile(path, target, constants.COPYFILE_EXCL);
      if (!options.keepOriginal) await rename(path, target);
      return target;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST" && attempt < 100) continue;
      throw new ChorusError("E_PLATFORM", `could not set corrupt file ${path} aside: ${(error as Error).message}`, {
        hint: "check that the directory is writable",
        cause: error,
      });
    }
  }
}
