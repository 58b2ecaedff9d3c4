// The package's runtime as one file, dist/bundle/index.js, built from tsc's output in dist/: Node's
// ES module loader then resolves, reads, compiles and links one file at every start of a gateway or
// a plugin instead of each of core's modules (a gateway's start loads ~24 of them). tsc's dist/
// still carries the .d.ts the exports name. zod stays external: plugins share it with core and the
// gateway by identity, so one copy.
import { isAbsolute } from "node:path";
import { defineConfig } from "rolldown";

export default defineConfig({
  input: { index: "dist/index.js" },
  platform: "node",
  external: (id) =>
    (!id.startsWith(".") && !isAbsolute(id) && !id.startsWith("\0")) || id.endsWith("/emoji-data.generated.js"),
  output: {
    dir: "dist/bundle",
    cleanDir: true,
    format: "esm",
    entryFileNames: "[name].js",
    paths: (id) => (id.endsWith("/emoji-data.generated.js") ? "../emoji/emoji-data.generated.js" : id),
  },
});
