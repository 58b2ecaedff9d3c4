import { pathToFileURL } from "node:url";
import { CHORUS_API_VERSION, type ChannelPlugin, channelPluginProblems } from "@chorus/core";
import type { DiscoveredChannel, Discovery } from "./discover.js";
import { incompatibleApiError, PluginLoadError } from "./errors.js";
import { closestChannelId, installCommandFor } from "./first-party.js";

/**
 * The discovered channel with this id; throws `unknown-channel` saying what is wrong (a likely typo,
 * a first-party channel not installed, or an id nothing provides) and, once, what to do.
 */
export function findChannel(id: string, discovery: Discovery): DiscoveredChannel {
  const found = discovery.channels.find((channel) => channel.id === id);
  if (found) return found;
  const installed = discovery.channels.map((channel) => channel.id);
  const listing = `installed channels: ${installed.length > 0 ? installed.join(", ") : "none"}`;
  const meant = closestChannelId(id, installed);
  let message: string;
  let hint: string;
  if (meant) {
    message = `No channel "${id}": did you mean "${meant}"? (${listing})`;
    const install = installed.includes(meant) ? undefined : installCommandFor(meant);
    hint = `Write "${meant}" (channels.${meant} in the config)${install ? ` and install it: ${install}` : ""}.`;
  } else if (installCommandFor(id)) {
    message = `Channel "${id}" is not installed (${listing}).`;
    hint = `Run: ${installCommandFor(id)}`;
  } else {
    message = `No installed plugin provides channel "${id}" (${listing}).`;
    hint =
      "Install the plugin that provides it: chorus plugins add <its npm package, tarball or directory> (docs/install.md).";
  }
  if (discovery.problems.length > 0) {
    message += `\nProblems found while looking for plugins:\n${discovery.problems.map((p) => `- ${p.message}`).join("\n")}`;
  }
  throw new PluginLoadError("unknown-channel", message, {
    hint,
    details: { channel: id, installed, ...(meant ? { meant } : {}) },
  });
}

const loaded = new Map<string, Promise<ChannelPlugin<unknown>>>();

/**
 * The plugin object of a discovered channel: checks the manifest's apiVersion before importing,
 * then imports the entry once (cached per entry file) and checks what it exports.
 */
export async function loadChannelPlugin(channel: DiscoveredChannel): Promise<ChannelPlugin<unknown>> {
  if (channel.plugin) return channel.plugin;
  const who = `${channel.packageName}@${channel.version}`;
  const { apiVersion } = channel.manifest;
  if (apiVersion !== CHORUS_API_VERSION) {
    throw incompatibleApiError(who, apiVersion, { channel: channel.id, package: channel.packageName });
  }
  const { entry } = channel;
  if (!entry) {
    throw new PluginLoadError(
      "invalid-plugin",
      `${who} (${channel.dir}) has neither a plugin object nor an entry file.`,
    );
  }
  let pending = loaded.get(entry);
  if (!pending) {
    pending = importPlugin(channel, entry, who);
    loaded.set(entry, pending);
    pending.catch(() => loaded.delete(entry));
  }
  return pending;
}

async function importPlugin(channel: DiscoveredChannel, entry: string, who: string): Promise<ChannelPlugin<unknown>> {
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(entry).href)) as Record<string, unknown>;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new PluginLoadError("import-failed", `Plugin ${who} failed to load: ${reason}`, {
      cause: error,
      hint: `Check that ${channel.packageName} is built and its dependencies are installed; reinstall it with: chorus plugins add ${channel.packageName}`,
      details: { channel: channel.id, package: channel.packageName, entry },
    });
  }
  const candidate = pickExport(module);
  const problems =
    candidate === undefined
      ? ["it has neither a default export nor a named `plugin` export"]
      : channelPluginProblems(candidate);
  if (problems.length > 0) {
    throw new PluginLoadError(
      "invalid-plugin",
      `${who} does not export a valid channel plugin (${entry}): ${problems.join("; ")}. The package must default-export the plugin object (see defineChannel in @chorus/core).`,
      { details: { channel: channel.id, package: channel.packageName, entry, problems } },
    );
  }
  const plugin = candidate as ChannelPlugin<unknown>;
  if (plugin.id !== channel.manifest.id) {
    throw new PluginLoadError(
      "id-mismatch",
      `${who} declares channel "${channel.manifest.id}" in package.json#chorus.id, but its plugin object has id "${plugin.id}". The two must be the same; fix the package.`,
      { details: { channel: channel.id, package: channel.packageName, pluginId: plugin.id } },
    );
  }
  return plugin;
}

/** The default export, else a named `plugin` export; unwraps CommonJS `exports.default`. */
function pickExport(module: Record<string, unknown>): unknown {
  const candidate = module.default !== undefined ? module.default : module.plugin;
  if (typeof candidate === "object" && candidate !== null && channelPluginProblems(candidate).length > 0) {
    const inner = (candidate as { default?: unknown }).default;
    if (inner !== undefined && channelPluginProblems(inner).length === 0) return inner;
  }
  return candidate;
}
