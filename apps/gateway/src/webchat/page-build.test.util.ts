import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type OutputAsset, type OutputChunk, type RolldownOptions, rolldown } from "rolldown";
import { loadConfig } from "rolldown/config";
import { checkedAssets, type WebchatPageAssets } from "./page.js";

/** The gateway's rolldown config (the CLI bundle, then the page). */
export const ROLLDOWN_CONFIG = fileURLToPath(new URL("../../rolldown.config.mjs", import.meta.url));
/** The page's sources. */
export const PAGE_SOURCES = fileURLToPath(new URL("./page/", import.meta.url));

/** The page's build as `rolldown.config.mjs` declares it. */
export async function pageBuildConfig(): Promise<RolldownOptions> {
  const configs = [await loadConfig(ROLLDOWN_CONFIG)].flat() as RolldownOptions[];
  const page = configs.find((config) => JSON.stringify(config.input).includes(join("webchat", "page", "main.ts")));
  if (!page) throw new Error(`${ROLLDOWN_CONFIG} has no build of src/webchat/page/main.ts`);
  return page;
}

/**
 * Builds the page's script and stylesheet in memory from `src/webchat/page/` with the gateway's own
 * rolldown config: unit tests serve the page as it is in the source, without a build on disk.
 */
export async function buildPageAssets(): Promise<WebchatPageAssets> {
  const config = await pageBuildConfig();
  const bundle = await rolldown(config);
  try {
    const output = Array.isArray(config.output) ? config.output[0] : config.output;
    const { output: files } = await bundle.generate({ ...output, sourcemap: false });
    const script = files.find((file): file is OutputChunk => file.type === "chunk" && file.isEntry);
    const style = files.find((file): file is OutputAsset => file.type === "asset" && file.fileName.endsWith(".css"));
    if (!script || !style) throw new Error("the page build made no script or no stylesheet");
    return checkedAssets({ script: script.code, style: String(style.source) });
  } finally {
    await bundle.close();
  }
}
