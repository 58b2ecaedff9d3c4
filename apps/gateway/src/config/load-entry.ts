import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** True when a `plugins.load` entry is a path (not a package name). */
export function isPathEntry(entry: string): boolean {
  return entry.startsWith("file:") || entry.startsWith(".") || entry.startsWith("~/") || isAbsolute(entry);
}

/** A `plugins.load` path made absolute (relative ones against the config file's directory); package names unchanged. */
export function resolveLoadEntry(entry: string, configFile: string): string {
  if (entry.startsWith("file:")) return fileURLToPath(entry);
  if (entry.startsWith("~/")) return join(homedir(), entry.slice(2));
  if (isAbsolute(entry)) return resolve(entry);
  if (entry.startsWith(".")) return resolve(dirname(configFile), entry);
  return entry;
}
