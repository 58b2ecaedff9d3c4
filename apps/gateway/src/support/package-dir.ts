import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The nearest directory at or above `dir` that holds a `package.json`. */
function packageDirAbove(dir: string): string {
  for (let current = dir; ; current = dirname(current)) {
    if (existsSync(join(current, "package.json"))) return current;
    if (dirname(current) === current) throw new Error(`no package.json in ${dir} or any directory above it`);
  }
}

/**
 * The gateway package's own directory: its `node_modules` chain is searched for channel plugins,
 * and the built-in webchat lives there. Found by looking upward rather than at a fixed depth, since
 * this module runs from `src/`, from `dist/` (the library) and from a chunk in `dist/bin/` (the CLI).
 */
export const GATEWAY_PACKAGE_DIR = packageDirAbove(dirname(fileURLToPath(import.meta.url)));
