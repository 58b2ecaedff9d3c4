import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { ChorusError } from "@chorus/core";
import {
  closestChannelId,
  FIRST_PARTY_CHANNEL_IDS,
  type FirstPartySpec,
  firstPartyPackage,
  firstPartySpec,
  isFirstPartyId,
} from "./first-party.js";
import type { NpmOptions } from "./npm.js";
import { ensurePluginsPackage } from "./plugins-dir.js";
import { buildClonePackage, chorusScopeRegistry, clonePackageFor } from "./workspace.js";

/** What `chorus plugins add <spec>` hands to npm, and whether npm may ask a registry for it. */
export interface InstallTarget {
  spec: string;
  offline: boolean;
}

export interface TargetOptions extends NpmOptions {
  /** Relative path specs are resolved against this; `process.cwd()` by default. */
  cwd?: string;
  /** The gateway's package directory: inside a clone, first-party channels come from the clone. */
  gatewayDir?: string;
  /** Told where a first-party package comes from. */
  onNotice?: (line: string) => void;
}

/**
 * Decides what a `plugins add` spec installs. A first-party channel (`@chorus/channel-<id>` or a
 * bare `<id>`) comes from the clone the gateway runs in, built first, without asking any registry;
 * outside a clone only from a registry configured for the `@chorus` scope, never the public one,
 * where that scope is not ours. A word one or two letters off a channel id is refused with the id
 * it most likely meant. Anything else (third-party names, tarballs, paths, git URLs) goes to npm.
 */
export async function resolveInstallTarget(
  spec: string,
  pluginsDir: string,
  options: TargetOptions = {},
): Promise<InstallTarget> {
  const normalized = normalizeSpec(spec, options.cwd ?? process.cwd());
  const firstParty = firstPartySpec(normalized);
  if (firstParty) return firstPartyTarget(firstParty, pluginsDir, options);
  const meant = closestChannelId(normalized);
  if (meant) {
    throw new ChorusError("E_INVALID_INPUT", `"${normalized}" is not a channel: did you mean "${meant}"?`, {
      hint: `Run: chorus plugins add ${meant}`,
    });
  }
  return { spec: normalized, offline: false };
}

async function firstPartyTarget(
  { id, version }: FirstPartySpec,
  pluginsDir: string,
  options: TargetOptions,
): Promise<InstallTarget> {
  const name = firstPartyPackage(id);
  if (!isFirstPartyId(id)) {
    const meant = closestChannelId(id);
    throw new ChorusError("E_INVALID_INPUT", `There is no first-party channel "${id}" (${name}).`, {
      hint: meant
        ? `Did you mean "${meant}"? Run: chorus plugins add ${meant}`
        : `First-party channels: ${FIRST_PARTY_CHANNEL_IDS.join(", ")}. A third-party channel is installed by its own package name, tarball or directory.`,
    });
  }
  const clone = options.gatewayDir ? await clonePackageFor(id, options.gatewayDir) : undefined;
  if (clone) {
    const asked = version && version !== clone.version ? ` (${version} was asked; a clone has one version)` : "";
    options.onNotice?.(
      `Installing ${name}@${clone.version} from this clone, ${clone.dir}${asked}; no registry is asked.`,
    );
    await buildClonePackage(clone.dir, options);
    return { spec: clone.dir, offline: true };
  }
  // Asked where npm will install, so a project .npmrc there counts as it will for the install.
  await ensurePluginsPackage(pluginsDir);
  if (!(await chorusScopeRegistry(pluginsDir, options))) {
    throw new ChorusError(
      "E_INVALID_INPUT",
      `${name} is not installed from the public npm registry: Chorus is not published there, and the @chorus scope there is not ours, so a package of that name could be anyone's code.`,
      {
        hint: `From a clone of the Chorus repository: npx -y pnpm@12.4.2 chorus plugins add ${id} (or chorus plugins add <clone>/packages/channel-${id}, or a tarball packed there); or set @chorus:registry in your npm config to the registry you install Chorus from (docs/install.md).`,
      },
    );
  }
  return { spec: version ? `${name}@${version}` : name, offline: false };
}

/** Makes path specs absolute (npm runs in the plugins directory) and refuses ones npm would read as flags. */
function normalizeSpec(spec: string, cwd: string): string {
  const trimmed = spec.trim();
  if (trimmed === "" || trimmed.startsWith("-")) {
    throw new ChorusError(
      "E_INVALID_INPUT",
      `"${spec}" is not an npm package spec. Give a channel id (telegram), a package name (chorus-channel-matrix), a tarball, a directory or a git URL.`,
    );
  }
  if (trimmed === "~" || trimmed.startsWith("~/")) return join(homedir(), trimmed.slice(1));
  if (isAbsolute(trimmed) || trimmed === "." || trimmed === ".." || /^\.\.?[\\/]/.test(trimmed)) {
    return resolve(cwd, trimmed);
  }
  if (trimmed.startsWith("file:")) return `file:${resolve(cwd, trimmed.slice("file:".length))}`;
  return trimmed;
}
