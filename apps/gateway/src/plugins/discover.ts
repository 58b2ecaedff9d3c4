import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { CHORUS_API_VERSION, type ChannelManifest, type ChannelPlugin, isChorusError } from "@chorus/core";
import { type PackageReading, readPackageDir } from "./package.js";
import { pluginsNodeModules, readPluginDependencies } from "./plugins-dir.js";
import { byCodeUnits, findPackage, nodeModulesChain, scanNodeModules } from "./scan.js";

/** Where a channel was found; later sources in this list win over earlier ones for the same id. */
export type ChannelSource = "builtin" | "gateway" | "home" | "load";

/** An installed channel package, known from its manifest; its code is not loaded yet. */
export interface DiscoveredChannel {
  id: string;
  packageName: string;
  version: string;
  dir: string;
  manifest: ChannelManifest;
  source: ChannelSource;
  /** Absolute module file to import. */
  entry?: string;
  /** The plugin object itself; builtins only. */
  plugin?: ChannelPlugin<unknown>;
}

/** Something discovery could not use, with a message that says what to do. */
export interface DiscoveryProblem {
  reason: "not-found" | "not-a-channel" | "invalid-manifest";
  source: Exclude<ChannelSource, "builtin">;
  /** The package name, or the `plugins.load` entry as written. */
  target: string;
  dir?: string;
  message: string;
}

export interface Discovery {
  /** One channel per id, sorted by id. */
  channels: DiscoveredChannel[];
  /** Channels hidden by another with the same id and a higher precedence. */
  shadowed: DiscoveredChannel[];
  problems: DiscoveryProblem[];
}

export interface DiscoverOptions {
  /** The gateway's own package directory; its `node_modules` chain is searched. */
  gatewayDir: string;
  /** `<home>/plugins`; `<pluginsDir>/node_modules` is searched. */
  pluginsDir: string;
  /** `plugins.load`: package names or paths to package directories. */
  load: readonly string[];
  /** Relative `plugins.load` paths are resolved against this directory (the config file's). */
  configDir: string;
  builtins?: readonly DiscoveredChannel[];
}

/**
 * Finds installed channel packages by reading package.json files only, never importing code.
 * Precedence for one id: `plugins.load` > `<home>/plugins` > the gateway's node_modules > builtins.
 */
export async function discoverChannels(options: DiscoverOptions): Promise<Discovery> {
  const collector = new Collector();
  const homeModules = pluginsNodeModules(options.pluginsDir);
  const gatewayChain = nodeModulesChain(options.gatewayDir);

  for (const entry of options.load) {
    await collectLoadEntry(collector, entry, options, [homeModules, ...gatewayChain]);
  }

  let dependencies: Record<string, string> = {};
  try {
    dependencies = await readPluginDependencies(options.pluginsDir);
  } catch (error) {
    if (!isChorusError(error)) throw error;
    collector.problem({
      reason: "invalid-manifest",
      source: "home",
      target: options.pluginsDir,
      message: error.message,
    });
  }
  for (const name of Object.keys(dependencies).sort()) {
    const dir = join(homeModules, name);
    const reading = await readPackageDir(dir);
    if (reading.kind === "missing") {
      const message = `${name} is listed in ${join(options.pluginsDir, "package.json")} but not installed. Reinstall it with: chorus plugins add ${name}`;
      collector.problem({ reason: "not-found", source: "home", target: name, dir, message });
    } else {
      collector.add(reading, "home", name, true);
    }
  }
  // Directories are scanned and package.json files read all at once, then claimed in precedence order.
  // The gateway's own dev dependencies are its test fixtures (in a clone, the channel packages its
  // end-to-end tests drive, linked into its own node_modules): they are not plugins. Installed
  // with npm, the same names next to the gateway are the person's channels and count.
  const [homeReadings, fixtures, chainReadings] = await Promise.all([
    scanNodeModules(homeModules).then(readPackageDirs),
    devDependenciesOf(options.gatewayDir),
    Promise.all(gatewayChain.map((nodeModules) => scanNodeModules(nodeModules).then(readPackageDirs))),
  ]);
  for (const [dir, reading] of homeReadings) collector.add(reading, "home", dir, false);

  const ownModules = resolve(options.gatewayDir, "node_modules");
  for (const [index, nodeModules] of gatewayChain.entries()) {
    for (const [dir, reading] of chainReadings[index] ?? []) {
      const fixture =
        resolve(nodeModules) === ownModules && "packageName" in reading && fixtures.has(reading.packageName);
      if (fixture) continue;
      collector.add(reading, "gateway", dir, false);
    }
  }

  for (const builtin of options.builtins ?? []) collector.claim({ ...builtin, source: "builtin" });
  return collector.result();
}

/** Each directory with what its package.json says, in the order given. */
async function readPackageDirs(dirs: readonly string[]): Promise<[string, PackageReading][]> {
  return Promise.all(dirs.map(async (dir): Promise<[string, PackageReading]> => [dir, await readPackageDir(dir)]));
}

async function collectLoadEntry(
  collector: Collector,
  entry: string,
  options: DiscoverOptions,
  nodeModulesDirs: readonly string[],
): Promise<void> {
  const dir = resolve(options.configDir, expandHome(entry));
  if (isPackageName(entry)) {
    const installed = await findPackage(entry, nodeModulesDirs);
    if (installed) return collector.add(await readPackageDir(installed), "load", entry, true);
    // Not installed: a bare name may still be a directory next to the config file.
    const local = await readPackageDir(dir);
    if (local.kind !== "missing") return collector.add(local, "load", entry, true);
    const message = `plugins.load entry "${entry}": package ${entry} is not installed in ${nodeModulesDirs[0]} or next to the gateway. Install it with: chorus plugins add ${entry} (or give the path to its directory).`;
    collector.problem({ reason: "not-found", source: "load", target: entry, message });
    return;
  }
  const reading = await readPackageDir(dir);
  if (reading.kind === "missing") {
    const message = `plugins.load entry "${entry}": no package.json in ${dir}. Point it at a channel package's directory (the one holding package.json), relative to ${options.configDir} or absolute.`;
    collector.problem({ reason: "not-found", source: "load", target: entry, dir, message });
    return;
  }
  collector.add(reading, "load", entry, true);
}

/** Gathers channels in precedence order: the first claim of an id wins, later ones are shadowed. */
class Collector {
  private readonly byId = new Map<string, DiscoveredChannel>();
  private readonly seenDirs = new Set<string>();
  private readonly shadowed: DiscoveredChannel[] = [];
  private readonly problems: DiscoveryProblem[] = [];

  problem(problem: DiscoveryProblem): void {
    this.problems.push(problem);
  }

  /** Records what a package directory holds; `explicit` packages without a manifest are a problem. */
  add(reading: PackageReading, source: DiscoveryProblem["source"], target: string, explicit: boolean): void {
    if (reading.kind === "missing") return;
    const { dir } = reading;
    if (this.seenDirs.has(dir)) return;
    this.seenDirs.add(dir);
    const label = source === "load" ? `plugins.load entry "${target}": ` : "";
    if (reading.kind === "invalid") {
      const message = `${label}${reading.packageName} (${dir}) has a broken package.json: ${reading.message}`;
      this.problem({ reason: "invalid-manifest", source, target, dir, message });
    } else if (reading.kind === "not-a-channel") {
      if (!explicit) return;
      const message = `${label}${reading.packageName}@${reading.version} (${dir}) is not a Chorus channel plugin: its package.json has no "chorus" manifest. A channel package declares "chorus": { "kind": "channel", "id": "<id>", "apiVersion": ${CHORUS_API_VERSION} }.`;
      this.problem({ reason: "not-a-channel", source, target, dir, message });
    } else {
      const { packageName, version, manifest, entry } = reading;
      this.claim({ id: manifest.id, packageName, version, dir, manifest, source, entry });
    }
  }

  claim(channel: DiscoveredChannel): void {
    if (this.byId.has(channel.id)) this.shadowed.push(channel);
    else this.byId.set(channel.id, channel);
  }

  result(): Discovery {
    const channels = [...this.byId.values()].sort((a, b) => byCodeUnits(a.id, b.id));
    return { channels, shadowed: this.shadowed, problems: this.problems };
  }
}

const PACKAGE_NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;

/** True when a `plugins.load` entry names a package rather than a path. */
function isPackageName(entry: string): boolean {
  return !isAbsolute(entry) && !entry.startsWith(".") && PACKAGE_NAME.test(entry);
}

function expandHome(path: string): string {
  return path === "~" || path.startsWith("~/") ? join(homedir(), path.slice(1)) : path;
}

/** The names of a package's dev dependencies (none when its package.json cannot be read). */
async function devDependenciesOf(dir: string): Promise<Set<string>> {
  try {
    const manifest = JSON.parse(await readFile(join(dir, "package.json"), "utf8")) as {
      devDependencies?: Record<string, string>;
    };
    return new Set(Object.keys(manifest.devDependencies ?? {}));
  } catch {
    return new Set();
  }
}
