import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ChorusError } from "@chorus/core";

/** The package.json `chorus plugins add` creates in `<home>/plugins`. */
const PLUGINS_PACKAGE = { private: true, name: "chorus-plugins" };

/** `<pluginsDir>/node_modules`, where installed plugins live. */
export function pluginsNodeModules(pluginsDir: string): string {
  return join(pluginsDir, "node_modules");
}

/** The dependencies recorded in `<pluginsDir>/package.json` (name → spec); empty when there is none. */
export async function readPluginDependencies(pluginsDir: string): Promise<Record<string, string>> {
  const file = join(pluginsDir, "package.json");
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new ChorusError("E_PLATFORM", `Cannot read ${file}: ${String(error)}`, { retryable: false, cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ChorusError(
      "E_INVALID_INPUT",
      `${file} is not valid JSON (${error instanceof Error ? error.message : String(error)}). Fix or delete it; installed plugins are listed under "dependencies".`,
      { cause: error },
    );
  }
  const dependencies = (json as { dependencies?: unknown } | null)?.dependencies;
  if (typeof dependencies !== "object" || dependencies === null) return {};
  const result: Record<string, string> = {};
  for (const [name, spec] of Object.entries(dependencies)) {
    if (typeof spec === "string") result[name] = spec;
  }
  return result;
}

/** Creates `<pluginsDir>/package.json` (and the directory) when missing, so npm installs there. */
export async function ensurePluginsPackage(pluginsDir: string): Promise<void> {
  await mkdir(pluginsDir, { recursive: true });
  const file = join(pluginsDir, "package.json");
  try {
    await writeFile(file, `${JSON.stringify(PLUGINS_PACKAGE, null, 2)}\n`, { flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
}
