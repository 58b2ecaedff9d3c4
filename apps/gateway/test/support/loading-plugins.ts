import { execFile } from "node:child_process";
import { cp, mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { FIXTURES } from "./gateway-process.js";
import { cliEnv } from "./loading-cli.js";

const run = promisify(execFile);

/** Channel packages (and a library) for the loading tests: plain JS, no dependencies. */
export const LOADING_FIXTURES = join(FIXTURES, "loading");

/** The `--import` hook that appends every module URL a process loads to `CHORUS_TEST_MODULE_LOG`. */
export const MODULE_LOG_HOOK = join(LOADING_FIXTURES, "module-log", "register.mjs");

/** Fixture directory → the package name it is published as. */
export const FIXTURE_PACKAGES = {
  "chorus-channel-acme": "chorus-channel-acme",
  "channel-telegram": "@chorus/channel-telegram",
  "chorus-channel-future": "chorus-channel-future",
  "chorus-channel-broken": "chorus-channel-broken",
  "acme-utils": "acme-utils",
} as const;

export type FixtureName = keyof typeof FIXTURE_PACKAGES;

/** The directory of a fixture package in the repository. */
export function fixtureDir(fixture: FixtureName): string {
  return join(LOADING_FIXTURES, fixture);
}

/**
 * Copies a fixture package to `<home>/plugins/node_modules/<package name>`, where discovery finds
 * packages a person installed by hand; returns the installed directory.
 */
export async function installIntoHome(home: string, fixture: FixtureName): Promise<string> {
  const dir = join(home, "plugins", "node_modules", FIXTURE_PACKAGES[fixture]);
  await mkdir(join(dir, ".."), { recursive: true });
  await cp(fixtureDir(fixture), dir, { recursive: true });
  return dir;
}

/** What a process run with `registryEnv()` loaded, read back from its files. */
export interface ModuleRecords {
  /** Environment for the process: the module-log hook, and the fixtures' import records. */
  env: NodeJS.ProcessEnv;
  /** Every module URL the process loaded, in order. */
  modules(): Promise<string[]>;
  /** The fixture packages whose code ran (each writes its name when evaluated). */
  imports(): Promise<string[]>;
}

/** Files in `dir` that record a process's module registry and which fixture plugins ran. */
export function moduleRecords(dir: string): ModuleRecords {
  const modulesFile = join(dir, "modules.log");
  const importsFile = join(dir, "imports.log");
  const lines = (file: string) =>
    readFile(file, "utf8").then(
      (text) => text.split("\n").filter((line) => line !== ""),
      () => [],
    );
  return {
    env: {
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import=${pathToFileURL(MODULE_LOG_HOOK).href}`.trim(),
      CHORUS_TEST_MODULE_LOG: modulesFile,
      CHORUS_TEST_IMPORTS: importsFile,
    },
    modules: () => lines(modulesFile),
    imports: () => lines(importsFile),
  };
}

/** npm settings for tests: a private cache, offline, none of the caller's npm_* settings. */
export function hermeticNpmEnv(home: string, cacheDir: string): NodeJS.ProcessEnv {
  return cliEnv(home, {
    npm_config_cache: cacheDir,
    npm_config_offline: "true",
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
  });
}

/** Copies a fixture package to `workDir` and `npm pack`s it there; returns the tarball's path. */
export async function packFixture(fixture: FixtureName, workDir: string, env: NodeJS.ProcessEnv): Promise<string> {
  const source = join(workDir, fixture);
  await cp(fixtureDir(fixture), source, { recursive: true });
  const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", workDir], { cwd: source, env });
  const [packed] = JSON.parse(stdout) as { filename: string }[];
  if (!packed) throw new Error(`npm pack printed no tarball for ${fixture}: ${stdout}`);
  return join(workDir, packed.filename);
}
