import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { type ChannelPlugin, ChorusError } from "@chorus/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type DiscoveredChannel, type DiscoverOptions, type Discovery, discoverChannels } from "./discover.js";
import { PluginLoadError } from "./errors.js";
import { type FixturePackage, installFixture, makeTempDir, pluginSource, removeTempDir } from "./fixtures.test.util.js";
import { findChannel, loadChannelPlugin } from "./load.js";

let root: string;
let options: DiscoverOptions;
let homeModules: string;

beforeEach(async () => {
  root = await makeTempDir();
  globalThis.__imported = [];
  const gatewayDir = join(root, "gateway");
  await mkdir(gatewayDir, { recursive: true });
  options = { gatewayDir, pluginsDir: join(root, "home", "plugins"), load: [], configDir: join(root, "home") };
  homeModules = join(options.pluginsDir, "node_modules");
});

afterEach(async () => {
  await removeTempDir(root);
});

/** Installs one fixture under <home>/plugins and returns what discovery makes of it. */
async function discoverOne(fixture: FixturePackage): Promise<DiscoveredChannel> {
  await installFixture(homeModules, fixture);
  const discovery = await discoverChannels(options);
  expect(discovery.channels).toHaveLength(1);
  return discovery.channels[0] as DiscoveredChannel;
}

async function loadError(channel: DiscoveredChannel): Promise<PluginLoadError> {
  const error = await loadChannelPlugin(channel).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(PluginLoadError);
  return error as PluginLoadError;
}

function builtin(id: string): DiscoveredChannel {
  const plugin = { id } as unknown as ChannelPlugin<unknown>;
  const manifest = { kind: "channel", id, apiVersion: 1 } as const;
  return { id, packageName: "@chorus/gateway", version: "0.1.0", dir: root, manifest, source: "builtin", plugin };
}

describe("findChannel", () => {
  const discovery: Discovery = { channels: [builtin("memory"), builtin("webchat")], shadowed: [], problems: [] };

  it("returns the channel with the id", () => {
    expect(findChannel("webchat", discovery).id).toBe("webchat");
  });

  /** The PluginLoadError `findChannel` throws for `id`. */
  const refusal = (id: string, within: Discovery = discovery): PluginLoadError => {
    try {
      findChannel(id, within);
    } catch (thrown) {
      expect(thrown).toBeInstanceOf(PluginLoadError);
      return thrown as PluginLoadError;
    }
    throw new Error(`findChannel("${id}") found a channel`);
  };

  it("a first-party id that is not installed: says so, and the command once, in the hint", () => {
    const error = refusal("telegram");
    expect(error).toBeInstanceOf(ChorusError);
    expect(error.code).toBe("E_INVALID_INPUT");
    expect(error.reason).toBe("unknown-channel");
    expect(error.message).toBe('Channel "telegram" is not installed (installed channels: memory, webchat).');
    expect(error.hint).toBe("Run: chorus plugins add telegram");
  });

  it("a typo of a channel id: did you mean, and no package name made up from the typo", () => {
    const error = refusal("telegrm");
    expect(error.message).toBe('No channel "telegrm": did you mean "telegram"? (installed channels: memory, webchat)');
    expect(error.hint).toBe(
      'Write "telegram" (channels.telegram in the config) and install it: chorus plugins add telegram.',
    );
    expect(`${error.message} ${error.hint}`).not.toContain("chorus-channel-telegrm");
    // A typo of an installed channel: only the rename.
    expect(refusal("webhcat").hint).toBe('Write "webchat" (channels.webchat in the config).');
  });

  it("an id nothing provides: names no package (none may exist), and shows discovery problems", () => {
    const withProblem: Discovery = {
      channels: [],
      shadowed: [],
      problems: [{ reason: "not-found", source: "load", target: "./x", message: 'plugins.load entry "./x": gone' }],
    };
    const error = refusal("matrix", withProblem);
    expect(error.message).toBe(
      'No installed plugin provides channel "matrix" (installed channels: none).\nProblems found while looking for plugins:\n- plugins.load entry "./x": gone',
    );
    expect(error.hint).toBe(
      "Install the plugin that provides it: chorus plugins add <its npm package, tarball or directory> (docs/install.md).",
    );
    expect(error.hint).not.toContain("chorus-channel-matrix");
  });
});

describe("loadChannelPlugin", () => {
  it("returns a builtin's plugin without importing anything", async () => {
    const channel = builtin("memory");
    await expect(loadChannelPlugin(channel)).resolves.toBe(channel.plugin);
    expect(globalThis.__imported).toEqual([]);
  });

  it("imports the entry once and returns the same plugin object afterwards", async () => {
    const channel = await discoverOne({ name: "chorus-channel-acme" });
    const first = await loadChannelPlugin(channel);
    const second = await loadChannelPlugin({ ...channel });
    expect(second).toBe(first);
    expect(first.id).toBe("acme");
    expect(first.label).toBe("Test acme");
    expect(globalThis.__imported).toEqual(["chorus-channel-acme"]);
  });

  it("accepts a named `plugin` export when there is no default export", async () => {
    const source = pluginSource("chorus-channel-named", "named").replace("export default", "export const plugin =");
    const channel = await discoverOne({ name: "chorus-channel-named", id: "named", source });
    await expect(loadChannelPlugin(channel)).resolves.toMatchObject({ id: "named" });
  });

  it("refuses an incompatible apiVersion before importing", async () => {
    const channel = await discoverOne({
      name: "chorus-channel-acme",
      version: "2.0.0",
      manifest: { kind: "channel", id: "acme", apiVersion: 2 },
    });
    const error = await loadError(channel);
    expect(error.reason).toBe("incompatible-api");
    expect(error.code).toBe("E_INVALID_INPUT");
    expect(error.message).toBe(
      "chorus-channel-acme@2.0.0 declares apiVersion 2; this gateway speaks apiVersion 1. Install a version of the plugin built for apiVersion 1, or upgrade the gateway.",
    );
    expect(globalThis.__imported).toEqual([]);
  });

  it("reports a module that throws on import with its message", async () => {
    const source = `globalThis.__imported.push("throws"); throw new Error("missing native binding libfoo.so");\n`;
    const channel = await discoverOne({ name: "chorus-channel-acme", source });
    const error = await loadError(channel);
    expect(error.reason).toBe("import-failed");
    expect(error.code).toBe("E_PLATFORM");
    expect(error.retryable).toBe(false);
    expect(error.message).toBe("Plugin chorus-channel-acme@1.0.0 failed to load: missing native binding libfoo.so");
    expect(error.hint).toContain("chorus plugins add chorus-channel-acme");
    expect(globalThis.__imported).toEqual(["throws"]);
  });

  it("reports a missing entry file as an import failure", async () => {
    const channel = await discoverOne({ name: "chorus-channel-acme", fields: { main: "./dist/index.js" } });
    const error = await loadError(channel);
    expect(error.reason).toBe("import-failed");
    expect(error.message).toMatch(/^Plugin chorus-channel-acme@1\.0\.0 failed to load: .*dist[\\/]index\.js/);
  });

  it("refuses a default export that is not a plugin, listing the problems", async () => {
    const source = `export default { id: "acme", apiVersion: 1, label: "" };\n`;
    const channel = await discoverOne({ name: "chorus-channel-acme", source });
    const error = await loadError(channel);
    expect(error.reason).toBe("invalid-plugin");
    expect(error.code).toBe("E_INVALID_INPUT");
    expect(error.message).toContain(
      `chorus-channel-acme@1.0.0 does not export a valid channel plugin (${channel.entry})`,
    );
    expect(error.message).toContain("label must be a non-empty string");
    expect(error.message).toContain("create must be a function");
    expect(error.message).toContain("configSchema must be a Standard Schema");
    expect(error.message).toContain("capabilities.reactions is missing");
  });

  it("refuses a module without a default or `plugin` export", async () => {
    const channel = await discoverOne({ name: "chorus-channel-acme", source: "export const something = 1;\n" });
    const error = await loadError(channel);
    expect(error.reason).toBe("invalid-plugin");
    expect(error.message).toContain("it has neither a default export nor a named `plugin` export");
  });

  it("refuses a plugin whose id differs from its manifest", async () => {
    const channel = await discoverOne({ name: "chorus-channel-acme", id: "acme", pluginId: "other" });
    const error = await loadError(channel);
    expect(error.reason).toBe("id-mismatch");
    expect(error.message).toBe(
      'chorus-channel-acme@1.0.0 declares channel "acme" in package.json#chorus.id, but its plugin object has id "other". The two must be the same; fix the package.',
    );
  });
});
