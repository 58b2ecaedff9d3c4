import { type Dirent, realpathSync } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";

/** First-party channels live in this scope as `@chorus/channel-<id>`. */
const FIRST_PARTY_SCOPE = "@chorus";
const FIRST_PARTY_PREFIX = "channel-";
/** Third-party channels: `chorus-channel-<id>` or `@<scope>/chorus-channel-<id>`. */
const THIRD_PARTY_PREFIX = "chorus-channel-";

/**
 * The `node_modules` directories Node would search from `dir`, nearest first: `<dir>/node_modules`
 * and that of every ancestor not itself named `node_modules`. Walks from both `dir` and its real
 * path (symlinked installs resolve from where the files really are).
 */
export function nodeModulesChain(dir: string): string[] {
  const starts = [resolve(dir)];
  let real: string | undefined;
  try {
    real = realpathSync(dir);
  } catch {
    // a directory that does not exist: only its own path is walked
  }
  if (real && real !== starts[0]) starts.unshift(real);
  const chain: string[] = [];
  for (const start of starts) {
    for (let current = start; ; current = dirname(current)) {
      if (basename(current) !== "node_modules") {
        const candidate = join(current, "node_modules");
        if (!chain.includes(candidate)) chain.push(candidate);
      }
      if (dirname(current) === current) break;
    }
  }
  return chain;
}

/** True for a package name discovery treats as a channel candidate. */
export function isChannelPackageName(name: string): boolean {
  if (!name.startsWith("@")) return name.startsWith(THIRD_PARTY_PREFIX) && name.length > THIRD_PARTY_PREFIX.length;
  const [scope, bare = ""] = name.split("/", 2);
  if (scope === FIRST_PARTY_SCOPE && bare.startsWith(FIRST_PARTY_PREFIX) && bare.length > FIRST_PARTY_PREFIX.length) {
    return true;
  }
  return bare.startsWith(THIRD_PARTY_PREFIX) && bare.length > THIRD_PARTY_PREFIX.length;
}

/** The package directories in one `node_modules` whose names mark them as channel packages, sorted. */
export async function scanNodeModules(nodeModules: string): Promise<string[]> {
  // Scopes are listed at once: a flat production install has dozens, and each listing waits on the disk.
  const entries = (await listDirs(nodeModules)).filter((entry) => !entry.startsWith("."));
  const packages = await Promise.all(
    entries.map(async (entry) =>
      entry.startsWith("@") ? (await listDirs(join(nodeModules, entry))).map((inner) => `${entry}/${inner}`) : [entry],
    ),
  );
  const names = packages.flat().filter(isChannelPackageName);
  // First-party packages first, then the rest by name: a stable order for equal ids.
  names.sort((a, b) => rank(a) - rank(b) || byCodeUnits(a, b));
  return names.map((name) => join(nodeModules, name));
}

/** Finds an installed package by name in the first of `nodeModulesDirs` that holds it. */
export async function findPackage(name: string, nodeModulesDirs: readonly string[]): Promise<string | undefined> {
  for (const nodeModules of nodeModulesDirs) {
    const dir = join(nodeModules, name);
    if (await isDirectory(dir)) return dir;
  }
  return undefined;
}

/** True when `path` is a directory, following symlinks. */
export async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (info) => info.isDirectory(),
    () => false,
  );
}

function rank(name: string): number {
  return name.startsWith(`${FIRST_PARTY_SCOPE}/`) ? 0 : 1;
}

/** Names of the entries of `dir` that are directories or symlinks to directories (pnpm links). */
async function listDirs(dir: string): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const names: string[] = [];
  for (const entry of entries) {
    if (entry.isDirectory()) names.push(entry.name);
    else if (entry.isSymbolicLink() && (await isDirectory(join(dir, entry.name)))) names.push(entry.name);
  }
  return names;
}

/**
 * Orders strings by UTF-16 code units. Package names and channel ids are ASCII, where this agrees
 * with `localeCompare` but for punctuation; `localeCompare`'s first call loads ICU collation data
 * (~20 ms and ~3.5 MB) in every gateway start.
 */
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
