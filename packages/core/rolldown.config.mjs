// The package's runtime as one file, dist/bundle/index.js, built from tsc's output in dist/: Node's
// ES module loader then resolves, reads, compiles and links one file at every start of a gateway or
// a plugin instead of each of core's modules (a gateway's start loads ~24 of them). tsc's dist/
// still carries the .d.ts the exports name.
//
// zod is bundled in: its entry is ~100 ES module files (half of them locales) that every start would
// resolve, read, compile and link one by one; here they are part of one file. Core exports that copy
// as `z`, and every first-party package takes `z` from core, so a gateway loads zod once. A plugin that
// imports zod itself loads its own copy and still works: zod keeps its registry and config on
// globalThis and its `instanceof` checks by trait, and the gateway runs plugins' config schemas through
// Standard Schema. Of zod's locales the bundle keeps English, its default (`z.locales` holds `en`
// only): the others are half its code and no first-party package sets one.
import { isAbsolute, sep } from "node:path";
import { defineConfig } from "rolldown";
import { PACKAGE_BUNDLE_OUTPUT } from "../../scripts/bundle-output.mjs";

/** A bare specifier: a package (or a Node built-in), not a file of this build. */
const isPackage = (id) => !id.startsWith(".") && !isAbsolute(id) && !id.startsWith("\\0");

/** zod's list of locales, reduced to its default: the bundle leaves the other 60-odd out. */
const zodEnglishOnly = {
  name: "zod-english-only",
  load(id) {
    if (!/[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/.test(id)) return null;
    return 'export { default as en } from "./en.js";\n';
  },
};

export default defineConfig({
  input: { index: "dist/index.js" },
  platform: "node",
  plugins: [zodEnglishOnly],
  external: (id, importer) =>
    (isPackage(id) && id !== "zod" && (id.startsWith("node:") || !importer?.includes(`${sep}node_modules${sep}`))) ||
    id.endsWith("/emoji-data.generated.js"),
  output: {
    ...PACKAGE_BUNDLE_OUTPUT,
    paths: (id) => (id.endsWith("/emoji-data.generated.js") ? "../emoji/emoji-data.generated.js" : id),
  },
});
