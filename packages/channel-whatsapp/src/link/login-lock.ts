import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * Marks a login in progress in the auth directory, so a running gateway does not connect with
 * credentials the login is still writing (and still connected with). Not a `.json` file: clearing
 * logged-out credentials leaves it alone.
 */
const LOCK_FILE = "login.lock";

/** Takes the marker for this process; the returned function removes it. */
export async function holdLoginLock(authDir: string): Promise<() => Promise<void>> {
  const path = join(authDir, LOCK_FILE);
  await writeFile(path, `${process.pid}\n`);
  return () => rm(path, { force: true });
}

/** Whether a login that is still alive holds the marker (a crashed login's marker is ignored). */
export async function loginInProgress(authDir: string): Promise<boolean> {
  let text: string;
  try {
    text = await readFile(join(authDir, LOCK_FILE), "utf8");
  } catch {
    return false;
  }
  const pid = Number.parseInt(text, 10);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Whether a file name in the auth directory can mean a login finished. */
export function mayCompleteLogin(fileName: string | null): boolean {
  return fileName === null || fileName === LOCK_FILE || fileName === "creds.json";
}
