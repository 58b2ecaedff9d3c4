import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { PROVIDER_PACKAGES } from "../agent/index.js";
import { GATEWAY_PACKAGE_DIR } from "../support/index.js";

/**
 * Makes `gatewayDir` look like an installed gateway (its package.json, with the real peer ranges)
 * and, unless `providers` is false, links every provider package of this workspace into its
 * node_modules, so a real resolution from there finds them.
 */
export async function installGatewayLayout(gatewayDir: string, options: { providers?: boolean } = {}): Promise<void> {
  await mkdir(gatewayDir, { recursive: true });
  const manifest = JSON.parse(await readFile(join(GATEWAY_PACKAGE_DIR, "package.json"), "utf8")) as {
    name: string;
    version: string;
    peerDependencies: Record<string, string>;
  };
  const { name, version, peerDependencies } = manifest;
  await writeFile(join(gatewayDir, "package.json"), JSON.stringify({ name, version, peerDependencies }));
  if (options.providers === false) return;
  const require = createRequire(join(GATEWAY_PACKAGE_DIR, "package.json"));
  for (const packageName of Object.values(PROVIDER_PACKAGES)) {
    const target = join(gatewayDir, "node_modules", packageName);
    await mkdir(dirname(target), { recursive: true });
    await symlink(dirname(require.resolve(`${packageName}/package.json`)), target, "dir");
  }
}
