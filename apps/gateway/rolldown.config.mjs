// The `chorus` CLI as a few bundled files in dist/bin/, built from tsc's output in dist/: one file
// for what every command loads, and a chunk per dynamic import() (each command, the agent's turn,
// the MCP endpoint, PostgreSQL, …), so what was loaded on use still is. Node then loads a handful
// of files at start instead of ~160 of the gateway's own modules.
//
// The libraries every start loads and nothing else shares (the HTTP server, the logger, the command
// line) are bundled in with what they import: Node reads a few files instead of ~100 of theirs. Every
// other package stays external, resolved from node_modules: @chorus/core, @chorus/channel-kit and zod,
// whose classes, symbols and schemas plugins share with the gateway by identity (one copy each); the
// SQLite package (native binaries); and what loads on first use only (PostgreSQL, the PDF reader,
// metrics, the model providers, …), which stays out of the start's files either way.
//
// Then the webchat page's script, from its TypeScript in src/webchat/page/ (type-checked by
// tsconfig.page.json), as one ES2020 browser script beside the CLI: dist/bin/webchat-page.js, with its
// stylesheet as dist/bin/webchat-page.css. The gateway reads both on the first `GET /` (webchat/page.ts).
import { readFile } from "node:fs/promises";
import { isAbsolute, join, sep } from "node:path";
import { defineConfig } from "rolldown";
import { LEAN_OUTPUT } from "../../scripts/bundle-output.mjs";

/** The page's sources by absolute path: its build also runs from tests, whatever their directory. */
const page = (path) => join(import.meta.dirname, path);

/** The page's stylesheet, next to its script: the gateway inlines both (CSP hashes, no other request). */
const pageStyle = {
  name: "webchat-page-style",
  async generateBundle() {
    const file = page("src/webchat/page/style.css");
    this.addWatchFile(file);
    this.emitFile({ type: "asset", fileName: "webchat-page.css", source: await readFile(file, "utf8") });
  },
};

/** The start's own libraries, bundled into the CLI with everything they import. */
const BUNDLED = new Set(["hono", "@hono/node-server", "pino", "commander"]);

/** A bare specifier: a package (or a Node built-in), not a file of this build. */
const isPackage = (id) => !id.startsWith(".") && !isAbsolute(id) && !id.startsWith("\\0");

/** The package a bare specifier names: `hono/streaming` → `hono`, `@hono/node-server/x` → `@hono/node-server`. */
const packageOf = (id) =>
  id
    .split("/")
    .slice(0, id.startsWith("@") ? 2 : 1)
    .join("/");

/** Whether `id` goes into the bundle: a bundled library, or what one of them imports (not Node's own). */
const isBundled = (id, importer) =>
  !id.startsWith("node:") && (BUNDLED.has(packageOf(id)) || importer?.includes(`${sep}node_modules${sep}`) === true);

export default defineConfig([
  {
    // The library entry (`@chorus/gateway`'s exports) is bundled beside the CLI, sharing its chunks, so
    // the package ships one copy of the gateway's code, not the bundle and tsc's files both.
    input: { chorus: "dist/cli/launch.js", index: "dist/index.js" },
    platform: "node",
    external: (id, importer) => isPackage(id) && !isBundled(id, importer),
    output: {
      dir: "dist/bin",
      cleanDir: true,
      format: "esm",
      entryFileNames: "[name].js",
      chunkFileNames: "[name]-[hash].js",
      ...LEAN_OUTPUT,
      // Maps from each chunk to the dist/ modules in it: test/e2e/start-modules.test.ts reads them
      // to tell which modules a start loaded. (Not published: `files` leaves out *.map.)
      sourcemap: true,
      sourcemapExcludeSources: true,
    },
  },
  {
    // Built after the CLI (whose build empties dist/bin first).
    input: { "webchat-page": page("src/webchat/page/main.ts") },
    // Module comments and map sources relative to the gateway, whichever directory builds it (tests run from the root).
    cwd: import.meta.dirname,
    platform: "browser",
    tsconfig: page("tsconfig.page.json"),
    transform: { target: "es2020" },
    plugins: [pageStyle],
    output: {
      dir: "dist/bin",
      format: "iife",
      strict: true,
      entryFileNames: "[name].js",
      // A map without a comment in the script (the page inlines it): it names the sources the script
      // was built from, which src/webchat/page-build.test.ts checks.
      sourcemap: "hidden",
      sourcemapExcludeSources: true,
    },
  },
]);
