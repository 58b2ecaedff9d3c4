// Output settings every runtime bundle of the repository shares (core's, channel-kit's, the gateway's):
// sources V8 holds at one byte per character (a single non-ASCII character anywhere makes the whole
// source two bytes a character) and no comments but legal notices, so every start has less to scan
// and keep. The source maps still point into tsc's output.
export const LEAN_OUTPUT = {
  charset: "ascii",
  comments: { legal: true, annotation: true, jsdoc: false },
};

/** A package's runtime files: `dist/bundle/<entry>.js`, ES modules, emptied on each build. */
export const PACKAGE_BUNDLE_OUTPUT = {
  dir: "dist/bundle",
  cleanDir: true,
  format: "esm",
  entryFileNames: "[name].js",
  ...LEAN_OUTPUT,
};
