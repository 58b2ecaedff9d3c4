import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The gateway package's own directory (this file sits one level below it, in `src/` or `dist/`):
 * its `node_modules` chain is searched for channel plugins, and the built-in webchat lives there.
 */
export const GATEWAY_PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), "..");
