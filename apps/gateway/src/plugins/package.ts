import { readFile, realpath } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { type ChannelManifest, isChorusError, readChannelManifest } from "@chorus/core";

/** What discovery learns from one package directory, without running any of its code. */
export type PackageReading =
  | { kind: "channel"; packageName: string; version: string; dir: string; manifest: ChannelManifest; entry: string }
  | { kind: "not-a-channel"; packageName: string; version: string; dir: string }
  | { kind: "invalid"; packageName: string; dir: string; message: string }
  | { kind: "missing"; dir: string };

/** Conditions Node's `import()` matches, in the order Node tries them. */
const IMPORT_CONDITIONS = new Set(["node", "import", "default"]);

/**
 * Reads `<dir>/package.json` and its `chorus` manifest; never throws for a broken package.
 * Symlinks are followed: `dir` and `entry` of the result are real paths.
 */
export async function readPackageDir(path: string): Promise<PackageReading> {
  const dir = await realpath(path).catch(() => resolve(path));
  let text: string;
  try {
    text = await readFile(join(dir, "package.json"), "utf8");
  } catch (error) {
    if (isNotFound(error)) return { kind: "missing", dir: resolve(path) };
    return { kind: "invalid", packageName: basename(dir), dir, message: `cannot read package.json: ${String(error)}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { kind: "invalid", packageName: basename(dir), dir, message: `package.json is not valid JSON: ${reason}` };
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    return { kind: "invalid", packageName: basename(dir), dir, message: "package.json is not a JSON object" };
  }
  const pkg = json as Record<string, unknown>;
  const packageName = typeof pkg.name === "string" && pkg.name !== "" ? pkg.name : basename(dir);
  const version = typeof pkg.version === "string" && pkg.version !== "" ? pkg.version : "0.0.0";
  let manifest: ChannelManifest | undefined;
  try {
    manifest = readChannelManifest(pkg, `${packageName}/package.json`);
  } catch (error) {
    if (!isChorusError(error)) throw error;
    return { kind: "invalid", packageName, dir, message: error.message };
  }
  if (!manifest) return { kind: "not-a-channel", packageName, version, dir };
  return { kind: "channel", packageName, version, dir, manifest, entry: resolve(dir, moduleEntry(pkg)) };
}

/**
 * The file `import("<package>")` would load, relative to the package: `exports["."]` (following
 * the `node`/`import`/`default` conditions), else `module`, else `main`, else `index.js`.
 */
export function moduleEntry(pkg: Record<string, unknown>): string {
  const fromExports = exportsEntry(pkg.exports);
  if (fromExports) return fromExports;
  for (const field of ["module", "main"] as const) {
    const value = pkg[field];
    if (typeof value === "string" && value.trim() !== "") return value;
  }
  return "index.js";
}

function exportsEntry(exports: unknown): string | undefined {
  if (typeof exports === "string" || Array.isArray(exports)) return conditionalTarget(exports);
  if (typeof exports !== "object" || exports === null) return undefined;
  const keys = Object.keys(exports);
  const isSubpathMap = keys.some((key) => key.startsWith("."));
  const root = isSubpathMap ? (exports as Record<string, unknown>)["."] : exports;
  return conditionalTarget(root);
}

function conditionalTarget(target: unknown): string | undefined {
  if (typeof target === "string") return target.startsWith("./") ? target : undefined;
  if (Array.isArray(target)) {
    for (const candidate of target) {
      const found = conditionalTarget(candidate);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof target !== "object" || target === null) return undefined;
  for (const [condition, value] of Object.entries(target)) {
    if (!IMPORT_CONDITIONS.has(condition)) continue;
    const found = conditionalTarget(value);
    if (found) return found;
  }
  return undefined;
}

function isNotFound(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}
