import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GATEWAY_PACKAGE_DIR } from "../support/index.js";
import { installGatewayLayout } from "../testing/index.js";
import {
  assertProviderInstalled,
  findProviderPackage,
  ModelProviderMissingError,
  PROVIDER_PACKAGES,
} from "./provider-package.js";

const manifest = JSON.parse(readFileSync(join(GATEWAY_PACKAGE_DIR, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** An npm project with the gateway installed in it (no provider unless `providers`). */
async function project(providers = false): Promise<{ root: string; gatewayDir: string }> {
  const root = await mkdtemp(join(tmpdir(), "chorus-providers-"));
  dirs.push(root);
  const gatewayDir = join(root, "node_modules", "@chorus", "gateway");
  await installGatewayLayout(gatewayDir, { providers });
  return { root, gatewayDir };
}

describe("provider packages: optional peer dependencies of the gateway", () => {
  it("each is an optional peer (the workspace keeps it as a devDependency, same range), none a dependency", () => {
    for (const packageName of Object.values(PROVIDER_PACKAGES)) {
      expect(manifest.dependencies[packageName], packageName).toBeUndefined();
      expect(manifest.peerDependencies[packageName], packageName).toMatch(/^\^\d+\.\d+\.\d+$/);
      expect(manifest.peerDependenciesMeta[packageName]?.optional, packageName).toBe(true);
      expect(manifest.devDependencies[packageName], packageName).toBe(manifest.peerDependencies[packageName]);
    }
    // Beside the providers only zod, for the types the gateway's declarations name (its runtime is in core's file).
    expect(Object.keys(manifest.peerDependencies).sort()).toEqual([...Object.values(PROVIDER_PACKAGES), "zod"].sort());
    expect(manifest.dependencies.zod).toBeUndefined();
    expect(manifest.peerDependenciesMeta.zod?.optional).toBe(true);
  });

  it("found from the gateway's own directory, with the installed version", () => {
    for (const [provider, packageName] of Object.entries(PROVIDER_PACKAGES)) {
      const installed = JSON.parse(
        readFileSync(join(GATEWAY_PACKAGE_DIR, "node_modules", packageName, "package.json"), "utf8"),
      ) as { version: string };
      const found = findProviderPackage(provider as keyof typeof PROVIDER_PACKAGES);
      expect(found).toMatchObject({ packageName, installedVersion: installed.version });
      expect(found.range).toBe(manifest.peerDependencies[packageName]);
    }
  });

  it("missing in an installation without it: the error names agent, provider, package and the npm command there", async () => {
    const { root, gatewayDir } = await project();
    expect(findProviderPackage("openai", gatewayDir).installedVersion).toBeUndefined();
    let error: unknown;
    try {
      assertProviderInstalled("helper", "openai", gatewayDir);
    } catch (thrown) {
      error = thrown;
    }
    const range = manifest.peerDependencies["@ai-sdk/openai"];
    expect(error).toBeInstanceOf(ModelProviderMissingError);
    expect(error).toMatchObject({
      code: "E_INVALID_INPUT",
      message: `agent "helper" uses provider "openai", whose package @ai-sdk/openai is not installed next to the gateway. Install it with: cd ${root} && npm i @ai-sdk/openai@${range}`,
      hint: `Run: cd ${root} && npm i @ai-sdk/openai@${range}`,
      details: { agent: "helper", provider: "openai", package: "@ai-sdk/openai", range },
    });
    // The demo model and an outside agent need no package.
    expect(() => assertProviderInstalled("main", "demo", gatewayDir)).not.toThrow();
    expect(() => assertProviderInstalled("main", "external", gatewayDir)).not.toThrow();
  });

  it("the range comes from the installed gateway's package.json, read when asked", async () => {
    const { gatewayDir } = await project();
    await writeFile(
      join(gatewayDir, "package.json"),
      JSON.stringify({ name: "@chorus/gateway", peerDependencies: { "ollama-ai-provider-v2": "^9.1.0" } }),
    );
    expect(findProviderPackage("ollama", gatewayDir).install).toMatch(/ && npm i ollama-ai-provider-v2@\^9\.1\.0$/);
  });

  it("installed next to the gateway (the project's node_modules): found, with its version", async () => {
    const { root, gatewayDir } = await project();
    const dir = join(root, "node_modules", "@ai-sdk", "anthropic");
    await mkdir(dir, { recursive: true });
    await writeFile(
      join(dir, "package.json"),
      JSON.stringify({ name: "@ai-sdk/anthropic", version: "3.9.1", exports: { "./package.json": "./package.json" } }),
    );
    expect(findProviderPackage("anthropic", gatewayDir).installedVersion).toBe("3.9.1");
    expect(() => assertProviderInstalled("main", "anthropic", gatewayDir)).not.toThrow();
    expect(findProviderPackage("google", gatewayDir).installedVersion).toBeUndefined();
  });

  it.runIf(process.platform !== "win32")("a global install (npm i -g): the command installs globally too", async () => {
    const prefix = await mkdtemp(join(tmpdir(), "chorus-global-"));
    dirs.push(prefix);
    const gatewayDir = join(prefix, "lib", "node_modules", "@chorus", "gateway");
    await installGatewayLayout(gatewayDir, { providers: false });
    await mkdir(join(prefix, "bin"));
    await writeFile(join(prefix, "bin", "chorus"), "");
    expect(findProviderPackage("google", gatewayDir).install).toBe(
      `npm i -g @ai-sdk/google@${manifest.peerDependencies["@ai-sdk/google"]}`,
    );
  });
});
