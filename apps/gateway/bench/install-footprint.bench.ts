import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bench, describe } from "vitest";
import { recordFigures } from "./support/results.js";

// The production install of the gateway plus one channel (Telegram), as a user gets it: the release
// check's installer (scripts/install-release.sh: every package packed, then `npm install
// --omit=dev` from the tarballs, better-sqlite3 compiled in place), measured with `du`. Model
// providers are installed separately (optional peers): then one, OpenAI's, as a user adds it.

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const MB = 1024 * 1024;
const dest = await mkdtemp(join(tmpdir(), "chorus-bench-install-"));
execFileSync("bash", [join(ROOT, "scripts/install-release.sh"), dest, "telegram"], { stdio: "ignore" });
const modules = join(dest, "node_modules");
/** Disk usage of a path (`du -sk`), in bytes. */
const du = (path: string): number =>
  Number(execFileSync("du", ["-sk", path], { encoding: "utf8" }).split("\t")[0]) * 1024;

const total = du(modules);
const packages: [string, number][] = [];
for (const entry of await readdir(modules, { withFileTypes: true })) {
  if (!entry.isDirectory() || entry.name === ".bin") continue;
  if (entry.name.startsWith("@")) {
    for (const scoped of await readdir(join(modules, entry.name))) {
      packages.push([`${entry.name}/${scoped}`, du(join(modules, entry.name, scoped))]);
    }
  } else packages.push([entry.name, du(join(modules, entry.name))]);
}
packages.sort((a, b) => b[1] - a[1]);
// Where better-sqlite3 is compiled in place (no prebuilt binary could be downloaded), its object
// files and build tree stay in node_modules; a prebuilt install has only the .node file.
const sqliteBuild = ["build/Release/obj", "build/Release/obj.target", "build/Release/.deps", "build/deps"]
  .map((path) => join(modules, "better-sqlite3", path))
  .reduce((sum, path) => sum + (duIfPresent(path) ?? 0), 0);
// What one model provider adds, installed the way the gateway's error says (at its peer range).
const { peerDependencies } = JSON.parse(readFileSync(join(modules, "@chorus", "gateway", "package.json"), "utf8")) as {
  peerDependencies: Record<string, string>;
};
const provider = "@ai-sdk/openai";
execFileSync("npm", ["i", `${provider}@${peerDependencies[provider]}`, "--prefer-offline", "--no-audit", "--no-fund"], {
  cwd: dest,
  stdio: "ignore",
});
const providerBytes = du(modules) - total;
await rm(dest, { recursive: true, force: true });

const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
console.log(
  `production install, gateway + Telegram: node_modules ${mb(total)} (target ≤ 32 MB), ${packages.length} packages; ` +
    `${mb(total - sqliteBuild)} without better-sqlite3's build intermediates (${mb(sqliteBuild)}); ` +
    `a model provider adds ${mb(providerBytes)} (${provider}); largest: ${packages
      .slice(0, 8)
      .map(([name, bytes]) => `${name} ${mb(bytes)}`)
      .join(", ")}`,
);
recordFigures("install-footprint", {
  nodeModulesMB: { value: total / MB, unit: "MB", target: "≤ 32", what: "gateway + Telegram, npm --omit=dev, du" },
  withoutSqliteBuildMB: {
    value: (total - sqliteBuild) / MB,
    unit: "MB",
    what: "the same less better-sqlite3's object files (what a prebuilt binary leaves)",
  },
  oneProviderMB: {
    value: providerBytes / MB,
    unit: "MB",
    what: "what one model provider adds when installed (@ai-sdk/openai, at the gateway's peer range); none is by default",
  },
  packages: { value: packages.length, unit: "packages" },
  ...Object.fromEntries(
    packages.slice(0, 6).map(([name, bytes]) => [`largest.${name}`, { value: bytes / MB, unit: "MB" }]),
  ),
});

/** Disk usage of a path that may not exist (a build directory a prebuilt install does not have). */
function duIfPresent(path: string): number | undefined {
  return existsSync(path) ? du(path) : undefined;
}

describe("install footprint", () => {
  bench("figures above (the install happens once, at load)", () => {}, {
    iterations: 1,
    time: 0,
    warmupIterations: 0,
    warmupTime: 0,
  });
});
