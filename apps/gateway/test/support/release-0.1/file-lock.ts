import { mkdir, open, rm, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { ioError } from "@chorus/channel-kit/state";
import { ChorusError } from "@chorus/core";

/** A lock file older than this was left by a crashed process and is taken over. */
const STALE_LOCK_MS = 10_000;
const LOCK_WAIT_MS = 5_000;

/** Runs `fn` holding `lockFile` (created exclusively); waits for another holder, takes over a stale lock. */
export async function withFileLock<T>(lockFile: string, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (let delay = 5; ; delay = Math.min(delay * 2, 100)) {
    try {
      await (await open(lockFile, "wx", 0o600)).close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") {
        await mkdir(dirname(lockFile), { recursive: true });
        continue;
      }
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw ioError("lock", lockFile, error);
      const age = await stat(lockFile).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (age > STALE_LOCK_MS) await rm(lockFile, { force: true });
      else if (Date.now() > deadline) {
        throw new ChorusError("E_PLATFORM", `${lockFile} is held by another Chorus process`, {
          retryable: true,
          hint: `try again; if no chorus process is running, delete ${lockFile}`,
        });
      } else await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
  try {
    return await fn();
  } finally {
    await rm(lockFile, { force: true });
  }
}
