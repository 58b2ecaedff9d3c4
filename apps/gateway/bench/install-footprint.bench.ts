import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bench, describe } from "vitest";
import { recordFigures } from "./support/results.js";

// The production install of the gateway plus one channel (Telegram), as a user gets it: the release
// check's installer (scripts/install-release.sh: every package packed, then `npm install
// --omit=dev` from the tarballs, the SQLite package pruned to this platform's binary), measured
// with `du`. Model
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
// The SQLite state store: its JavaScript and this platform's prebuilt binaries (the installer
// removes its sources and the other platforms' binaries, ~24 MB a plain npm install keeps).
const sqlite = du(join(modules, "@photostructure", "sqlite"));
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
    `SQLite ${mb(sqlite)}; ` +
    `a model provider adds ${mb(providerBytes)} (${provider}); largest: ${packages
      .slice(0, 8)
      .map(([name, bytes]) => `${name} ${mb(bytes)}`)
      .join(", ")}`,
);
recordFigures("install-footprint", {
  nodeModulesMB: { value: total / MB, unit: "MB", target: "≤ 32", what: "gateway + Telegram, npm --omit=dev, du" },
  sqliteMB: {
    value: sqlite / MB,
    unit: "MB",
    what: "of which the SQLite state store (@photostructure/sqlite, this platform's prebuilt binaries)",
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

describe("install footprint", () => {
  bench("figures above (the install happens once, at load)", () => {}, {
    iterations: 1,
    time: 0,
    warmupIterations: 0,
    warmupTime: 0,
  });
});
