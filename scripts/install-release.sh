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
# Every @chorus/* name resolves to its tarball, wherever it is referenced (our packages are on no registry).
node - "$dest" "$@" <<'JS'
const { readdirSync, readFileSync, writeFileSync } = require("node:fs");
const { execFileSync } = require("node:child_process");
const [dest, ...names] = process.argv.slice(2);
const tarballs = {};
let providerRanges = {};
for (const file of readdirSync(`${dest}/tarballs`)) {
  const manifest = JSON.parse(execFileSync("tar", ["-xOzf", `${dest}/tarballs/${file}`, "package/package.json"], { encoding: "utf8" }));
  tarballs[manifest.name] = `file:./tarballs/${file}`;
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
};
writeFileSync(`${dest}/package.json`, `${JSON.stringify(manifest, null, 2)}\n`);
JS
cd "$dest"
npm install --omit=dev --ignore-scripts --no-audit --no-fund --prefer-offline --no-package-lock
# The one native addon (the SQLite state store) is built here, against this Node's own headers; no
# other package's install script runs.
npm rebuild better-sqlite3 --no-audit --no-fund
# Running needs only the addon (build/Release/better_sqlite3.node): the object files, the static
# library, the build tree and the SQLite and C++ sources it was compiled from (~27 MB, most of a
# production install) go. `npm rebuild better-sqlite3` needs them again: reinstall instead.
sqlite=node_modules/better-sqlite3
rm -rf "$sqlite/build/Release/obj" "$sqlite/build/Release/obj.target" "$sqlite/build/Release/.deps" \
  "$sqlite/build/Release/sqlite3.a" "$sqlite/build/Release/test_extension.node" "$sqlite/build/deps" \
  "$sqlite/deps" "$sqlite/src"
echo "Installed: $dest/node_modules/.bin/chorus"
