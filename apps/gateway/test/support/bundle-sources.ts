import { readFile } from "node:fs/promises";
import { fileURLToPath, pathToFileURL } from "node:url";

/** Where the CLI's bundle lives: each file there has a source map naming the dist/ modules in it. */
const BUNDLE_DIR = /\/dist\/bin\/[^/]+\.js$/;

/**
 * A process's loaded module URLs with every file of the CLI bundle replaced by the modules bundled
 * into it (read from its source map): the modules a start ran, as if it had loaded them one by one.
 */
export async function unbundledModules(urls: readonly string[]): Promise<string[]> {
  const modules: string[] = [];
  for (const url of urls) {
    if (!url.startsWith("file:") || !BUNDLE_DIR.test(url)) {
      modules.push(url);
      continue;
    }
    // A file without a map holds no module of ours: the bundler's own helpers.
    const mapName = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(await readFile(fileURLToPath(url), "utf8"))?.[1];
    if (mapName === undefined) {
      modules.push(url);
      continue;
    }
    const mapFile = fileURLToPath(new URL(mapName, url));
    const map = JSON.parse(await readFile(mapFile, "utf8")) as { sources?: unknown };
    if (!Array.isArray(map.sources)) throw new Error(`${mapFile} has no "sources" list`);
    for (const source of map.sources as string[]) modules.push(new URL(source, pathToFileURL(mapFile)).href);
  }
  return modules;
}
