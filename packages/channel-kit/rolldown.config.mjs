// The package's runtime as one file per export (dist/bundle/index.js, dist/bundle/state/index.js,
// sharing a chunk), built from tsc's output in dist/: Node's ES module loader then resolves, reads,
// compiles and links a few files at every start of a gateway or a plugin instead of each of
// channel-kit's modules (~28 at a gateway's start). tsc's dist/ still carries the .d.ts the exports
// name. @chorus/core stays external: plugins share it (and the zod it carries) with the gateway by
// identity.
import { isAbsolute } from "node:path";
import { defineConfig } from "rolldown";
import { PACKAGE_BUNDLE_OUTPUT } from "../../scripts/bundle-output.mjs";

export default defineConfig({
  input: { index: "dist/index.js", "state/index": "dist/state/index.js" },
  platform: "node",
  external: (id) => !id.startsWith(".") && !isAbsolute(id) && !id.startsWith("\0"),
  output: {
    ...PACKAGE_BUNDLE_OUTPUT,
  },
});
