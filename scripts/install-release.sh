#!/usr/bin/env bash
# Installs Chorus as it is published, from this clone: packs every publishable package (pnpm pack
# turns workspace: ranges into versions), then installs the gateway and the channels named on the
# command line from those tarballs with plain npm into DEST, and the model provider packages named
# there (the gateway's optional peer dependencies, at the gateway's ranges). Third-party packages
# come from the npm registry (or npm's cache). Run `pnpm install && pnpm build` first.
#
#   bash scripts/install-release.sh /opt/chorus telegram discord @ai-sdk/openai
#   /opt/chorus/node_modules/.bin/chorus start
set -euo pipefail
if [ $# -lt 1 ]; then
  echo "usage: $0 DEST [channel-id | provider-package ...]" >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
dest="$(mkdir -p "$1" && cd "$1" && pwd)"
shift
read -r -a pnpm <<<"${PNPM:-npx -y pnpm@12.4.2}"
rm -rf "$dest/tarballs"
mkdir -p "$dest/tarballs"
for dir in "$root"/packages/* "$root"/apps/*; do
  [ -f "$dir/package.json" ] || continue
  node -e 'process.exit(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).private ? 1 : 0)' "$dir/package.json" || continue
  (cd "$dir" && "${pnpm[@]}" pack --pack-destination "$dest/tarballs" >/dev/null)
done
# Every @chorus/* name resolves to its tarball, wherever it is referenced (our packages are on no
# registry, and the registry's @chorus scope is not ours), by its absolute path: npm reads a relative
# override from the package that references it (a channel's optional peer @chorus/testkit) and then
# warns that the tarball "seems to be corrupted".
node - "$root" "$dest" "$@" <<'JS'
const { readdirSync, readFileSync, writeFileSync } = require("node:fs");
const { execFileSync } = require("node:child_process");
const [root, dest, ...names] = process.argv.slice(2);
const tarballs = {};
let providerRanges = {};
for (const file of readdirSync(`${dest}/tarballs`)) {
  const manifest = JSON.parse(execFileSync("tar", ["-xOzf", `${dest}/tarballs/${file}`, "package/package.json"], { encoding: "utf8" }));
  tarballs[manifest.name] = `file:${dest}/tarballs/${file}`;
  if (manifest.name === "@chorus/gateway") providerRanges = manifest.peerDependencies ?? {};
}
// A name that is one of the gateway's (optional) peer dependencies is a model provider; any other a channel id.
const providers = names.filter((name) => Object.hasOwn(providerRanges, name));
const channels = names.filter((name) => !Object.hasOwn(providerRanges, name));
const wanted = ["@chorus/gateway", "@chorus/core", "@chorus/channel-kit", ...channels.map((id) => `@chorus/channel-${id}`)];
for (const name of wanted) if (!tarballs[name]) throw new Error(`no package ${name} in this clone`);
const manifest = {
  name: "chorus-installation",
  private: true,
  dependencies: {
    ...Object.fromEntries(wanted.map((name) => [name, tarballs[name]])),
    ...Object.fromEntries(providers.map((name) => [name, providerRanges[name]])),
  },
  overrides: tarballs,
  allowScripts: allowedScripts(`${root}/pnpm-workspace.yaml`),
};
writeFileSync(`${dest}/package.json`, `${JSON.stringify(manifest, null, 2)}\n`);

/** The workspace's `allowBuilds` (whose install scripts may run), for npm's `allowScripts`: one list for both. */
function allowedScripts(workspaceFile) {
  const lines = readFileSync(workspaceFile, "utf8").split("\n");
  const start = lines.findIndex((line) => /^allowBuilds:\s*$/.test(line));
  const allowed = {};
  for (const line of start < 0 ? [] : lines.slice(start + 1)) {
    if (/^\S/.test(line)) break;
    const entry = /^\s+"?([^":\s]+)"?:\s*(true|false)\s*$/.exec(line);
    if (entry) allowed[entry[1]] = entry[2] === "true";
  }
  return allowed;
}
JS
cd "$dest"
# Install scripts are on, as in any npm install: none that may run compiles or downloads (the SQLite
# state store's binary comes prebuilt inside its registry package).
npm install --omit=dev --no-audit --no-fund --prefer-offline --no-package-lock
# The SQLite package carries its C sources and a prebuilt binary for every platform (~29 MB); running
# here needs only this platform's binaries (glibc and musl) and its JavaScript.
sqlite=node_modules/@photostructure/sqlite
platform="$(node -p 'process.platform + "-" + process.arch')"
[ -d "$sqlite/prebuilds/$platform" ] || { echo "error: $sqlite has no prebuilt binary for $platform" >&2; exit 1; }
rm -rf "$sqlite/src" "$sqlite/scripts"
find "$sqlite/prebuilds" -mindepth 1 -maxdepth 1 ! -name "$platform" -exec rm -rf {} +
echo "Installed: $dest/node_modules/.bin/chorus"
