import { isChorusError } from "@chorus/core";

/** Prints an error the way a person can act on it (no stack), and sets the exit code. */
export function reportError(error: unknown): void {
  if (isChorusError(error)) {
    process.stderr.write(`error ${error.code}: ${error.message}\n`);
    if (error.hint) process.stderr.write(`  hint: ${error.hint}\n`);
  } else {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  process.exitCode = 1;
}

/** A short progress line on stderr (long operations). */
export function progress(line: string): void {
  process.stderr.write(`${line}\n`);
}
