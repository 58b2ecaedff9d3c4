import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { ChorusError } from "@chorus/core";
import { CorruptFileError } from "./corrupt-file.js";

export interface WriteFileAtomicOptions {
  /** File mode of the result; private (0o600) by default since gateway state holds conversations. */
  mode?: number;
}

let tempCounter = 0;

/**
 * Replaces `path` with `data` so that a crash leaves either the old or the new content: writes a
 * unique temp file next to it, fsyncs it, renames it over the target and fsyncs the directory.
 * Missing parent directories are created owner-only (0700).
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: WriteFileAtomicOptions = {},
): Promise<void> {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${++tempCounter}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const handle = await open(temp, "wx", options.mode ?? 0o600);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw ioError("write", path, error);
  }
  await syncDirectory(dir);
}

/** Parses a JSON file; `undefined` when it does not exist, a `CorruptFileError` when it is not JSON. */
export async function readJsonFile<T>(path: string): Promise<T | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw ioError("read", path, error);
  }
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new CorruptFileError(path, `not valid JSON (${(error as Error).message})`, { cause: error });
  }
}

/** Makes a rename or a new file in `dir` durable; a no-op where directories cannot be fsynced. */
export async function syncDirectory(dir: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(dir, "r");
    await handle.sync();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Windows and some file systems refuse to open or fsync a directory; the rename still happened.
    if (code !== "EISDIR" && code !== "EPERM" && code !== "EINVAL" && code !== "EBADF" && code !== "EACCES") {
      throw ioError("sync directory", dir, error);
    }
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** An I/O failure on a state file as a typed error that says which file and what to check. */
export function ioError(action: string, path: string, error: unknown): ChorusError {
  if (error instanceof ChorusError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  return new ChorusError("E_PLATFORM", `could not ${action} ${path}: ${(error as Error).message}`, {
    hint:
      code === "ENOSPC"
        ? "the disk is full; free some space"
        : "check that the Chorus home directory exists, is writable and the disk is not full",
    details: { path, ...(code === undefined ? {} : { errno: code }) },
    cause: error,
  });
}
