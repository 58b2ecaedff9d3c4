import { chmodSync, closeSync, type Dirent, mkdirSync, openSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** What `restrictToOwner` found and did. */
export type OwnerOnly =
  /** Already without group and other permissions. */
  | "private"
  /** Group and other permissions taken off. */
  | "tightened"
  | "missing"
  /** Another user's: left as it is. */
  | "not-owned"
  /** The file system refused the change (a mount without Unix modes). */
  | "refused"
  /** Windows, where modes mean little. */
  | "skipped";

const GROUP_AND_OTHERS = 0o077;

function codeOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

/** Takes group and other permissions off `path` (0644 → 0600, 0755 → 0700) when it is this user's; never adds any. */
export function restrictToOwner(path: string): OwnerOnly {
  if (process.platform === "win32") return "skipped";
  try {
    const { mode, uid } = statSync(path);
    // Root could change anyone's file: a home another user owns is theirs to set.
    if (uid !== process.getuid?.()) return "not-owned";
    if ((mode & GROUP_AND_OTHERS) === 0) return "private";
    chmodSync(path, mode & 0o7700);
    return "tightened";
  } catch (error) {
    const code = codeOf(error);
    if (code === "ENOENT") return "missing";
    if (code === "EPERM" || code === "ENOTSUP" || code === "EROFS") return "refused";
    throw error;
  }
}

/** `restrictToOwner` on `dir` and everything under it, not following symbolic links; how many it tightened. */
export function restrictTreeToOwner(dir: string): number {
  const outcome = restrictToOwner(dir);
  if (outcome === "missing" || outcome === "skipped") return 0;
  let tightened = outcome === "tightened" ? 1 : 0;
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    if (codeOf(error) === "ENOENT" || codeOf(error) === "ENOTDIR" || codeOf(error) === "EACCES") return tightened;
    throw error;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) tightened += restrictTreeToOwner(path);
    else if (entry.isFile() && restrictToOwner(path) === "tightened") tightened++;
  }
  return tightened;
}

/** Creates `dir` and its missing parents owner-only (0700); an existing `dir` is tightened. */
export function makePrivateDir(dir: string): OwnerOnly {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return restrictToOwner(dir);
}

/** Creates `file` empty and owner-only (0600) when it does not exist; an existing one is tightened. */
export function makePrivateFile(file: string): OwnerOnly {
  try {
    closeSync(openSync(file, "wx", 0o600));
  } catch (error) {
    if (codeOf(error) !== "EEXIST") throw error;
  }
  return restrictToOwner(file);
}
