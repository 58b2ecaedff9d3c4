import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, sep } from "node:path";
import { ChorusError } from "@chorus/core";
import type { ModelProvider } from "../config/index.js";
import { nodeModulesChain } from "../plugins/index.js";
import { GATEWAY_PACKAGE_DIR } from "../support/index.js";

/**
 * The package each `provider:` value loads. They are optional peer dependencies of the gateway
 * (installed only by who uses them, the way channels are); the ranges live in its package.json.
 */
export const PROVIDER_PACKAGES = {
  "openai-compatible": "@ai-sdk/openai-compatible",
  openai: "@ai-sdk/openai",
  anthropic: "@ai-sdk/anthropic",
  google: "@ai-sdk/google",
  ollama: "ollama-ai-provider-v2",
} as const satisfies Record<Exclude<ModelProvider, "demo" | "external">, string>;

/** A provider whose model comes from a separately installed package. */
export type PackagedProvider = keyof typeof PROVIDER_PACKAGES;

/** Whether a provider's package is installed where the gateway finds it, and how to install it. */
export interface ProviderPackage {
  provider: PackagedProvider;
  packageName: string;
  /** The version range of the gateway's peerDependencies. */
  range: string;
  /** The installed version; undefined when the package is not installed. */
  installedVersion: string | undefined;
  /** The command that installs it next to the gateway. */
  install: string;
}

/** Whether `provider` loads a separately installed package. */
export function isPackagedProvider(provider: ModelProvider): provider is PackagedProvider {
  return Object.hasOwn(PROVIDER_PACKAGES, provider);
}

/**
 * Finds a provider's package the way the gateway's own `import()` will (Node's package lookup from
 * the gateway's directory), reading only its package.json: nothing of the provider is loaded.
 */
export function findProviderPackage(provider: PackagedProvider, gatewayDir = GATEWAY_PACKAGE_DIR): ProviderPackage {
  const packageName = PROVIDER_PACKAGES[provider];
  const range = peerRange(gatewayDir, packageName);
  return {
    provider,
    packageName,
    range,
    installedVersion: installedVersion(gatewayDir, packageName),
    install: installCommand(gatewayDir, `${packageName}@${range}`),
  };
}

/** A configured provider whose package is not installed next to the gateway. */
export class ModelProviderMissingError extends ChorusError {
  override readonly name = "ModelProviderMissingError";

  constructor(agentId: string, found: ProviderPackage) {
    super(
      "E_INVALID_INPUT",
      `agent "${agentId}" uses provider "${found.provider}", whose package ${found.packageName} is not installed next to the gateway. Install it with: ${found.install}`,
      {
        retryable: false,
        hint: `Run: ${found.install}`,
        details: {
          agent: agentId,
          provider: found.provider,
          package: found.packageName,
          range: found.range,
          install: found.install,
        },
      },
    );
  }
}

/** Throws `ModelProviderMissingError` when the agent's provider needs a package that is not installed. */
export function assertProviderInstalled(agentId: string, provider: ModelProvider, gatewayDir = GATEWAY_PACKAGE_DIR) {
  if (!isPackagedProvider(provider)) return;
  const found = findProviderPackage(provider, gatewayDir);
  if (found.installedVersion === undefined) throw new ModelProviderMissingError(agentId, found);
}

function peerRange(gatewayDir: string, packageName: string): string {
  const manifest = JSON.parse(readFileSync(join(gatewayDir, "package.json"), "utf8")) as {
    peerDependencies?: Record<string, string>;
  };
  const range = manifest.peerDependencies?.[packageName];
  if (range === undefined) {
    throw new ChorusError(
      "E_INVALID_INPUT",
      `${join(gatewayDir, "package.json")} has no peerDependency ${packageName}`,
    );
  }
  return range;
}

/**
 * The version of `<package>` in the first `node_modules` of the gateway's chain that has it: the
 * lookup an `import()` in the gateway does (ESM resolution ignores NODE_PATH and the global
 * folders that `require.resolve` would also search).
 */
function installedVersion(gatewayDir: string, packageName: string): string | undefined {
  for (const nodeModules of nodeModulesChain(gatewayDir)) {
    const packageDir = join(nodeModules, packageName);
    if (statSync(packageDir, { throwIfNoEntry: false })?.isDirectory()) return versionIn(packageDir);
  }
  return undefined;
}

function versionIn(packageDir: string): string {
  try {
    const { version } = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { version?: unknown };
    return typeof version === "string" ? version : "unknown";
  } catch {
    return "unknown";
  }
}

/**
 * `npm i <spec>` where it lands next to the gateway: `-g` for a global install (its `chorus` link
 * sits in the prefix's bin), else in the directory whose node_modules holds the gateway.
 */
function installCommand(gatewayDir: string, spec: string): string {
  const marker = `${sep}node_modules${sep}`;
  const at = gatewayDir.lastIndexOf(marker);
  if (at === -1) return `cd ${shellWord(gatewayDir)} && npm i ${spec}`;
  const project = gatewayDir.slice(0, at);
  const globalBin =
    process.platform === "win32" ? join(project, "chorus.cmd") : join(dirname(project), "bin", "chorus");
  const global = (process.platform === "win32" || basename(project) === "lib") && existsSync(globalBin);
  return global ? `npm i -g ${spec}` : `cd ${shellWord(project)} && npm i ${spec}`;
}

/** A path as one shell word: quoted when it holds anything but plain path characters. */
function shellWord(path: string): string {
  return /^[\w./:\\-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}
