import { createRequire } from "node:module";

/**
 * Loads a CommonJS dependency with `require`, resolved from the gateway's own package. Importing
 * one instead makes Node's ES module loader scan it for export names first (and `ws`'s ESM wrapper
 * imports its files one by one): a few ms to ~30 ms of CPU each, on every start.
 */
export const requirePackage = createRequire(import.meta.url);
