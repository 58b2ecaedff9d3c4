import { access, readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { ChorusError } from "@chorus/core";
import { firstPartyPackage } from "./first-party.js";
import { type NpmOptions, runNpm } from "./npm.js";

/**
 * The clone's own package of a first-party channel when this gateway runs from a clone of the
 * repository (the gateway at `<repo>/apps/gateway`, channels at `<repo>/packages/channel-<id>`);
 * else undefined.
 */
export async function clonePackageFor(
  id: string,
  gatewayDir: string,
): Promise<{ dir: string; version: string } | undefined> {
  const repo = resolve(gatewayDir, "..", "..");
  const dir = join(repo, "packages", `channel-${id}`);
  try {
    await access(join(repo, "pnpm-workspace.yaml"));
    const manifest = JSON.parse(await readFile(join(dir, "package.json"), "utf8")) as {
      name?: string;
      version?: string;
    };
    return manifest.name === firstPartyPackage(id) ? { dir, version: manifest.version ?? "0.0.0" } : undefined;
  } catch {
    return undefined;
  }
}

/** Builds a clone's package with its own `build` script (quick when it is up to date), so what is installed is current. */
export async function buildClonePackage(dir: string, options: NpmOptions): Promise<void> {
  try {
    await runNpm(["run", "build"], dir, options);
  } catch (error) {
    const repo = resolve(dir, "..", "..");
    throw new ChorusError("E_PLATFORM", `Could not build ${dir} before installing it.`, {
      retryable: false,
      hint: `Install and build the clone first: cd ${repo} && npx -y pnpm@12.4.2 install && npx -y pnpm@12.4.2 build`,
      cause: error,
    });
  }
}

/**
 * The registry npm is configured to take `@chorus/*` packages from (`@chorus:registry` in an npmrc
 * or the environment), else undefined: the public registry's `@chorus` scope is not ours.
 */
export async function chorusScopeRegistry(cwd: string, options: NpmOptions): Promise<string | undefined> {
  const { onProgress: _quiet, ...quiet } = options;
  const value = (await runNpm(["config", "get", "@chorus:registry"], cwd, quiet)).trim();
  return value === "" || value === "undefined" || value === "null" ? undefined : value;
}

/** Whether a failed `npm install` failed because the registry does not have the package (E404). */
export function isNotOnRegistry(error: unknown): boolean {
  const output = (error as { details?: { output?: unknown } }).details?.output;
  const text = Array.isArray(output) ? output.join("\n") : String((error as Error)?.message ?? "");
  return /\bE404\b|404 Not Found/.test(text);
}
