// The `chorus` CLI as a few bundled files in dist/bin/, built from tsc's output in dist/: one file
// for what every command loads, and a chunk per dynamic import() (each command, the agent's turn,
// the MCP endpoint, PostgreSQL, …), so what was loaded on use still is. Node then loads a handful
// of files at start instead of ~160 of the gateway's own modules.
//
// Every package stays external, resolved from node_modules as before: third-party dependencies
// (npm installs them; the SQLite package carries native binaries), and @chorus/core, @chorus/channel-kit and zod,
// whose classes, symbols and schemas plugins share with the gateway by identity: one copy each.
import { isAbsolute } from "node:path";
import { defineConfig } from "rolldown";

export default defineConfig({
  // The library entry (`@chorus/gateway`'s exports) is bundled beside the CLI, sharing its chunks, so
  // the package ships one copy of the gateway's code, not the bundle and tsc's files both.
  input: { chorus: "dist/cli/main.js", index: "dist/index.js" },
  platform: "node",
  external: (id) => !id.startsWith(".") && !isAbsolute(id) && !id.startsWith("\0"),
  output: {
    dir: "dist/bin",
    cleanDir: true,
    format: "esm",
    entryFileNames: "[name].js",
    chunkFileNames: "[name]-[hash].js",
    // Maps from each chunk to the dist/ modules in it: test/e2e/start-modules.test.ts reads them
    // to tell which modules a start loaded. (Not published: `files` leaves out *.map.)
    sourcemap: true,
    sourcemapExcludeSources: true,
  },
});
