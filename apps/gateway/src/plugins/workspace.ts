import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";

/** First-party channel names, the only ones a clone of the repository can stand in for. */
const FIRST_PARTY = /^@chorus\/channel-([a-z0-9][a-z0-9-]*)$/;

/**
 * The repository's own package for `spec` when this gateway runs from a clone (the gateway at
 * `<repo>/apps/gateway`, channels at `<repo>/packages/channel-<id>`), built; else undefined.
 */
export async function workspacePackageFor(spec: string, gatewayDir: string): Promise<string | undefined> {
  const id = FIRST_PARTY.exec(spec.trim())?.[1];
  if (id === undefined) return undefined;
  const dir = resolve(gatewayDir, "..", "..", "packages", `channel-${id}`);
  try {
    const manifest = JSON.parse(await readFile(join(dir, "package.json"), "utf8")) as { name?: string; main?: string };
    if (manifest.name !== spec.trim()) return undefined;
    await readFile(join(dir, manifest.main ?? "dist/index.js"));
    return dir;
  } catch {
    return undefined;
  }
}

/** Whether a failed `npm install` failed because the registry does not have the package (E404). */
export function isNotOnRegistry(error: unknown): boolean {
  const output = (error as { details?: { output?: unknown } }).details?.output;
  const text = Array.isArray(output) ? output.join("\n") : String((error as Error)?.message ?? "");
  return /\bE404\b|404 Not Found/.test(text);
}
