import { isAbsolute, join, resolve } from "node:path";
import { CHORUS_API_VERSION, ChorusError } from "@chorus/core";
import type { DiscoveredChannel } from "./discover.js";
import { incompatibleApiError, PluginLoadError } from "./errors.js";
import { resolveInstallTarget, type TargetOptions } from "./install-target.js";
import { type NpmOptions, runNpm } from "./npm.js";
import { type PackageReading, readPackageDir } from "./package.js";
import { ensurePluginsPackage, pluginsNodeModules, readPluginDependencies } from "./plugins-dir.js";
import { isNotOnRegistry } from "./workspace.js";

/** How `chorus plugins add` installs: npm's options, where relative paths start, the gateway's directory. */
export type InstallOptions = TargetOptions;

/** A package recorded in `<pluginsDir>/package.json`. */
export interface InstalledPlugin {
  packageName: string;
  /** What package.json records: a version range, a `file:` path, a git URL, … */
  spec: string;
  dir: string;
  /** Undefined when the package is missing from node_modules. */
  version?: string;
  /** The channel it provides, when it is one. */
  channel?: DiscoveredChannel;
  /** Why it is not a usable channel. */
  problem?: string;
}

const INSTALL_FLAGS = ["--ignore-scripts", "--no-audit", "--no-fund", "--save"] as const;

/**
 * Installs a channel into `<pluginsDir>` (see `resolveInstallTarget` for what a spec means) and
 * returns the channels it provides; a package that is not a channel for this gateway is removed
 * again (or its previous version restored).
 */
export async function installPlugin(
  spec: string,
  pluginsDir: string,
  options: InstallOptions = {},
): Promise<DiscoveredChannel[]> {
  const target = await resolveInstallTarget(spec, pluginsDir, options);
  await ensurePluginsPackage(pluginsDir);
  const before = await readPluginDependencies(pluginsDir);
  const offline = target.offline ? ["--offline"] : [];
  try {
    await runNpm(["install", ...INSTALL_FLAGS, ...offline, target.spec], pluginsDir, options);
  } catch (error) {
    throw notOnRegistry(error, target.spec);
  }
  const after = await readPluginDependencies(pluginsDir);
  const name = installedName(before, after, target.spec, pluginsDir);
  const reading = await readPackageDir(join(pluginsNodeModules(pluginsDir), name));
  if (reading.kind === "channel" && reading.manifest.apiVersion === CHORUS_API_VERSION) {
    const { packageName, version, dir, manifest, entry } = reading;
    return [{ id: manifest.id, packageName, version, dir, manifest, source: "home", entry }];
  }
  const previous = before[name];
  const undone = await rollback(name, previous, pluginsDir, options);
  throw refusal(reading, name, undone);
}

/** Uninstalls a plugin by package name or by the channel id it provides; returns what was removed. */
export async function removePlugin(
  nameOrId: string,
  pluginsDir: string,
  options: NpmOptions = {},
): Promise<InstalledPlugin> {
  const installed = await listInstalledPackages(pluginsDir);
  const match =
    installed.find((plugin) => plugin.packageName === nameOrId) ??
    installed.find((plugin) => plugin.channel?.id === nameOrId);
  if (!match) {
    const listing = installed.map((plugin) =>
      plugin.channel ? `${plugin.packageName} (channel ${plugin.channel.id})` : plugin.packageName,
    );
    const what =
      listing.length > 0
        ? `Installed: ${listing.join(", ")}.`
        : "Nothing is installed there; add a plugin with: chorus plugins add <npm-spec>";
    throw new ChorusError("E_INVALID_INPUT", `No plugin "${nameOrId}" is installed in ${pluginsDir}. ${what}`, {
      details: { installed: installed.map((plugin) => plugin.packageName) },
    });
  }
  await runNpm(["uninstall", "--no-audit", "--no-fund", "--save", match.packageName], pluginsDir, options);
  return match;
}

/** The channels provided by the packages `chorus plugins add` installed into `<pluginsDir>`. */
export async function listInstalled(pluginsDir: string): Promise<DiscoveredChannel[]> {
  const packages = await listInstalledPackages(pluginsDir);
  return packages.flatMap((plugin) => (plugin.channel ? [plugin.channel] : []));
}

/** Every package recorded in `<pluginsDir>/package.json`, with the channel it provides or why it does not. */
export async function listInstalledPackages(pluginsDir: string): Promise<InstalledPlugin[]> {
  const dependencies = await readPluginDependencies(pluginsDir);
  const result: InstalledPlugin[] = [];
  for (const [packageName, spec] of Object.entries(dependencies).sort(([a], [b]) => a.localeCompare(b))) {
    const dir = join(pluginsNodeModules(pluginsDir), packageName);
    const reading = await readPackageDir(dir);
    const plugin: InstalledPlugin = { packageName, spec, dir: reading.dir };
    if (reading.kind === "missing") {
      plugin.problem = `not installed in ${dir}; reinstall it with: chorus plugins add ${packageName}`;
    } else if (reading.kind === "invalid") {
      plugin.problem = reading.message;
    } else {
      plugin.version = reading.version;
      if (reading.kind === "channel") {
        const { version, manifest, entry } = reading;
        plugin.channel = { id: manifest.id, packageName, version, dir: reading.dir, manifest, source: "home", entry };
      } else {
        plugin.problem = 'not a Chorus channel plugin (no "chorus" manifest in its package.json)';
      }
    }
    result.push(plugin);
  }
  return result;
}

/** Which dependency an `npm install <target>` added or changed. */
function installedName(
  before: Record<string, string>,
  after: Record<string, string>,
  target: string,
  pluginsDir: string,
): string {
  const fromSpec = registryName(target);
  const changed = Object.keys(after).filter((name) => before[name] !== after[name]);
  const byChange = changed.find((name) => name === fromSpec) ?? changed[0];
  if (byChange) return byChange;
  const targetPath = target.startsWith("file:") ? target.slice("file:".length) : target;
  if (isAbsolute(targetPath)) {
    const byPath = Object.keys(after).find((name) => {
      const saved = after[name] ?? "";
      return saved.startsWith("file:") && resolve(pluginsDir, saved.slice("file:".length)) === targetPath;
    });
    if (byPath) return byPath;
  }
  if (fromSpec && after[fromSpec] !== undefined) return fromSpec;
  throw new ChorusError(
    "E_PLATFORM",
    `npm installed "${target}" but no matching entry appeared in ${join(pluginsDir, "package.json")}; cannot tell which package it was. Install it by package name instead.`,
    { retryable: false },
  );
}

/** The package name of a registry spec (`name`, `name@range`, `@scope/name@tag`), else undefined. */
function registryName(spec: string): string | undefined {
  const match = /^((?:@[a-z0-9][\w.~-]*\/)?[a-z0-9][\w.~-]*)(?:@.*)?$/i.exec(spec);
  return match?.[1];
}

/** Undoes an install: uninstalls a new package, or reinstalls the spec it had before. */
async function rollback(
  name: string,
  previous: string | undefined,
  pluginsDir: string,
  options: NpmOptions,
): Promise<string> {
  try {
    if (previous === undefined) {
      await runNpm(["uninstall", "--no-audit", "--no-fund", "--save", name], pluginsDir, options);
    } else {
      await runNpm(["install", ...INSTALL_FLAGS, `${name}@${previous}`], pluginsDir, options);
    }
    return previous === undefined ? " It was removed again." : ` The previous ${name}@${previous} was restored.`;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return ` Undoing the install failed too, remove it with: chorus plugins remove ${name} (${why})`;
  }
}

function refusal(reading: PackageReading, name: string, undone: string): PluginLoadError {
  if (reading.kind === "channel") {
    const who = `${reading.packageName}@${reading.version}`;
    return incompatibleApiError(who, reading.manifest.apiVersion, { package: name }, undone);
  }
  const who = reading.kind === "not-a-channel" ? `${reading.packageName}@${reading.version}` : name;
  const why =
    reading.kind === "invalid"
      ? `its manifest is broken: ${reading.message}`
      : reading.kind === "missing"
        ? "npm did not put it in node_modules"
        : 'its package.json has no "chorus" manifest';
  return new PluginLoadError(
    "not-a-channel",
    `${who} is not a Chorus channel plugin: ${why}.${undone} Channel packages are named @chorus/channel-<id> or chorus-channel-<id> and declare "chorus": { "kind": "channel", "id": "<id>", "apiVersion": ${CHORUS_API_VERSION} }.`,
    { details: { package: name } },
  );
}

/** npm's 404 in one line: the registry npm asked has no such package. */
function notOnRegistry(error: unknown, spec: string): unknown {
  if (!isNotOnRegistry(error) || !(error instanceof ChorusError)) return error;
  return new ChorusError("E_INVALID_INPUT", `${spec} is not on the npm registry npm is configured to use.`, {
    retryable: false,
    hint: "Check the package name, or install it from a tarball or a directory (chorus plugins add ./path).",
    cause: error,
  });
}
