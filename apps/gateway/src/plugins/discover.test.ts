import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type DiscoveredChannel, type DiscoverOptions, discoverChannels } from "./discover.js";
import { installFixture, makeTempDir, pluginSource, removeTempDir, writePackage } from "./fixtures.test.util.js";
import { loadChannelPlugin } from "./load.js";

let root: string;
let options: DiscoverOptions;
let homeModules: string;
let gatewayModules: string;

beforeEach(async () => {
  root = await makeTempDir();
  globalThis.__imported = [];
  const gatewayDir = join(root, "app", "gateway");
  await mkdir(gatewayDir, { recursive: true });
  options = {
    gatewayDir,
    pluginsDir: join(root, "home", "plugins"),
    load: [],
    configDir: join(root, "home"),
  };
  homeModules = join(options.pluginsDir, "node_modules");
  gatewayModules = join(gatewayDir, "node_modules");
});

afterEach(async () => {
  await removeTempDir(root);
});

const ids = (channels: readonly DiscoveredChannel[]) => channels.map((channel) => `${channel.id}:${channel.source}`);

describe("discoverChannels", () => {
  it("finds a third-party plugin in <home>/plugins/node_modules with its manifest and entry", async () => {
    const dir = await installFixture(homeModules, { name: "chorus-channel-acme", version: "1.2.3" });
    const discovery = await discoverChannels(options);
    expect(discovery.problems).toEqual([]);
    expect(discovery.channels).toEqual([
      {
        id: "acme",
        packageName: "chorus-channel-acme",
        version: "1.2.3",
        dir,
        manifest: { kind: "channel", id: "acme", apiVersion: 1 },
        source: "home",
        entry: join(dir, "index.js"),
      },
    ]);
    await expect(loadChannelPlugin(discovery.channels[0] as DiscoveredChannel)).resolves.toMatchObject({ id: "acme" });
    expect(globalThis.__imported).toEqual(["chorus-channel-acme"]);
  });

  it("finds scoped third-party, first-party and plugins.load packages, and ignores other names", async () => {
    await installFixture(homeModules, { name: "@acme/chorus-channel-x", id: "x" });
    await installFixture(gatewayModules, { name: "@chorus/channel-telegram", id: "telegram" });
    await installFixture(gatewayModules, { name: "@chorus/core", id: "core" });
    await installFixture(gatewayModules, { name: "@other/channel-nope", id: "nope" });
    await installFixture(gatewayModules, { name: "channel-nope2", id: "nope2" });
    await writePackage(join(root, "home", "my-channel"), { name: "my-private-channel", id: "mine" });
    const discovery = await discoverChannels({ ...options, load: ["./my-channel"] });
    expect(ids(discovery.channels)).toEqual(["mine:load", "telegram:gateway", "x:home"]);
    expect(discovery.problems).toEqual([]);
  });

  it("resolves a plugins.load package name from <home>/plugins first, then the gateway's node_modules", async () => {
    await installFixture(gatewayModules, { name: "matrix-bridge", id: "matrix" });
    const inHome = await installFixture(homeModules, { name: "zulip-bridge", id: "zulip" });
    const discovery = await discoverChannels({ ...options, load: ["zulip-bridge", "matrix-bridge"] });
    expect(ids(discovery.channels)).toEqual(["matrix:load", "zulip:load"]);
    expect(discovery.channels.find((channel) => channel.id === "zulip")?.dir).toBe(inHome);
  });

  it("searches every node_modules above the gateway, as Node resolution does", async () => {
    // The gateway installed as a dependency: <project>/node_modules/@chorus/gateway.
    const project = join(root, "project");
    const gatewayDir = join(project, "node_modules", "@chorus", "gateway");
    await mkdir(gatewayDir, { recursive: true });
    await installFixture(join(project, "node_modules"), { name: "chorus-channel-sibling", id: "sibling" });
    await installFixture(join(root, "node_modules"), { name: "chorus-channel-upper", id: "upper" });
    await installFixture(join(gatewayDir, "node_modules"), { name: "chorus-channel-own", id: "own" });
    const discovery = await discoverChannels({ ...options, gatewayDir });
    expect(ids(discovery.channels)).toEqual(["own:gateway", "sibling:gateway", "upper:gateway"]);
  });

  it("skips the gateway's own dev dependencies (its test fixtures in a clone) but still loads them by name", async () => {
    const gatewayDir = options.gatewayDir;
    await writeFile(
      join(gatewayDir, "package.json"),
      JSON.stringify({ name: "@chorus/gateway", devDependencies: { "@chorus/channel-fixture": "workspace:*" } }),
    );
    await installFixture(gatewayModules, { name: "@chorus/channel-fixture", id: "fixture" });
    await installFixture(gatewayModules, { name: "@chorus/channel-real", id: "real" });
    expect(ids((await discoverChannels(options)).channels)).toEqual(["real:gateway"]);
    const loaded = await discoverChannels({ ...options, load: ["@chorus/channel-fixture"] });
    expect(ids(loaded.channels)).toEqual(["fixture:load", "real:gateway"]);
  });

  it("follows symlinks the way pnpm lays packages out", async () => {
    const store = join(root, "store", "chorus-channel-linked");
    await writePackage(store, { name: "chorus-channel-linked", id: "linked" });
    await mkdir(join(homeModules, "@scope"), { recursive: true });
    await symlink(store, join(homeModules, "chorus-channel-linked"), "dir");
    const scopedStore = join(root, "store", "scoped");
    await writePackage(scopedStore, { name: "@scope/chorus-channel-scoped", id: "scoped" });
    await symlink(scopedStore, join(homeModules, "@scope", "chorus-channel-scoped"), "dir");
    const discovery = await discoverChannels(options);
    expect(ids(discovery.channels)).toEqual(["linked:home", "scoped:home"]);
    expect(discovery.channels[0]?.entry).toBe(join(store, "index.js"));
  });

  it("imports nothing while discovering, nor other channels when one is loaded", async () => {
    await installFixture(homeModules, { name: "chorus-channel-acme", id: "acme" });
    await installFixture(homeModules, { name: "chorus-channel-other", id: "other" });
    await installFixture(gatewayModules, { name: "@chorus/channel-slack", id: "slack" });
    await writePackage(join(root, "home", "local"), { name: "local-channel", id: "local" });
    const discovery = await discoverChannels({ ...options, load: ["./local"] });
    expect(discovery.channels).toHaveLength(4);
    expect(globalThis.__imported).toEqual([]);
    const other = discovery.channels.find((channel) => channel.id === "other") as DiscoveredChannel;
    await loadChannelPlugin(other);
    expect(globalThis.__imported).toEqual(["chorus-channel-other"]);
  });

  it("applies precedence load > home > gateway > builtin and reports the losers as shadowed", async () => {
    await installFixture(gatewayModules, { name: "@chorus/channel-webchat", id: "webchat" });
    await installFixture(gatewayModules, { name: "chorus-channel-acme", id: "acme", version: "1.0.0" });
    await installFixture(homeModules, { name: "chorus-channel-acme", id: "acme", version: "2.0.0" });
    await writePackage(join(root, "home", "acme-dev"), { name: "acme-dev", id: "acme", version: "3.0.0-dev" });
    await installFixture(homeModules, { name: "chorus-channel-memory", id: "memory" });
    const builtin = (id: string): DiscoveredChannel => ({
      id,
      packageName: "@chorus/gateway",
      version: "0.1.0",
      dir: options.gatewayDir,
      manifest: { kind: "channel", id, apiVersion: 1 },
      source: "builtin",
      plugin: { id } as never,
    });
    const discovery = await discoverChannels({
      ...options,
      load: ["./acme-dev"],
      builtins: [builtin("webchat"), builtin("memory"), builtin("builtin-only")],
    });
    expect(ids(discovery.channels)).toEqual(["acme:load", "builtin-only:builtin", "memory:home", "webchat:gateway"]);
    expect(discovery.channels[0]?.version).toBe("3.0.0-dev");
    expect(discovery.shadowed.map((channel) => `${channel.id}:${channel.source}@${channel.version}`)).toEqual([
      "acme:home@2.0.0",
      "acme:gateway@1.0.0",
      "webchat:builtin@0.1.0",
      "memory:builtin@0.1.0",
    ]);
  });

  it("lists the same package once when a load entry names an installed one", async () => {
    await installFixture(homeModules, { name: "chorus-channel-acme", id: "acme" });
    const discovery = await discoverChannels({ ...options, load: ["chorus-channel-acme"] });
    expect(ids(discovery.channels)).toEqual(["acme:load"]);
    expect(discovery.shadowed).toEqual([]);
  });

  it("reports broken load entries and manifests as problems instead of failing", async () => {
    await writePackage(join(root, "home", "plain"), { name: "left-pad-ish", manifest: null, source: "export {}" });
    await installFixture(homeModules, {
      name: "chorus-channel-broken",
      manifest: { kind: "channel", id: "Bad Id", apiVersion: 1 },
    });
    await installFixture(homeModules, { name: "chorus-channel-helper-lib", manifest: null, source: "export {}" });
    await mkdir(join(gatewayModules, "chorus-channel-garbled"), { recursive: true });
    await writeFile(join(gatewayModules, "chorus-channel-garbled", "package.json"), "{ not json");
    await installFixture(homeModules, { name: "chorus-channel-fine", id: "fine" });
    const discovery = await discoverChannels({
      ...options,
      load: ["./plain", "./nowhere", "chorus-channel-missing"],
    });
    expect(ids(discovery.channels)).toEqual(["fine:home"]);
    const problems = discovery.problems.map(({ reason, source, target }) => `${reason}:${source}:${target}`);
    expect(problems).toEqual([
      "not-a-channel:load:./plain",
      "not-found:load:./nowhere",
      "not-found:load:chorus-channel-missing",
      `invalid-manifest:home:${join(homeModules, "chorus-channel-broken")}`,
      `invalid-manifest:gateway:${join(gatewayModules, "chorus-channel-garbled")}`,
    ]);
    const [plain, nowhere, missing, broken, garbled] = discovery.problems.map((problem) => problem.message);
    expect(plain).toBe(
      `plugins.load entry "./plain": left-pad-ish@1.0.0 (${join(root, "home", "plain")}) is not a Chorus channel plugin: its package.json has no "chorus" manifest. A channel package declares "chorus": { "kind": "channel", "id": "<id>", "apiVersion": 1 }.`,
    );
    expect(nowhere).toContain(`no package.json in ${join(root, "home", "nowhere")}`);
    expect(missing).toContain("Install it with: chorus plugins add chorus-channel-missing");
    expect(broken).toContain("chorus-channel-broken");
    expect(broken).toContain("chorus.id must match");
    expect(garbled).toContain("chorus-channel-garbled");
    expect(garbled).toContain("not valid JSON");
  });

  it("includes packages recorded in <home>/plugins/package.json whatever their name", async () => {
    await mkdir(options.pluginsDir, { recursive: true });
    await writeFile(
      join(options.pluginsDir, "package.json"),
      JSON.stringify({ dependencies: { "matrix-for-chorus": "^1.0.0", "not-a-plugin": "^1.0.0", gone: "^1.0.0" } }),
    );
    await installFixture(homeModules, { name: "matrix-for-chorus", id: "matrix" });
    await installFixture(homeModules, { name: "not-a-plugin", manifest: null, source: "export {}" });
    const discovery = await discoverChannels(options);
    expect(ids(discovery.channels)).toEqual(["matrix:home"]);
    expect(discovery.problems.map(({ reason, target }) => `${reason}:${target}`)).toEqual([
      "not-found:gone",
      "not-a-channel:not-a-plugin",
    ]);
  });

  it("resolves the entry from exports conditions, module, main or index.js", async () => {
    const source = (name: string) => pluginSource(name, name.replace("chorus-channel-", ""));
    const cases: [string, Record<string, unknown>, string][] = [
      ["chorus-channel-a", { exports: "./lib/a.js" }, "lib/a.js"],
      [
        "chorus-channel-b",
        { exports: { ".": { types: "./b.d.ts", import: "./esm/b.js", require: "./b.cjs" } } },
        "esm/b.js",
      ],
      [
        "chorus-channel-c",
        { exports: { node: { import: { default: "./deep/c.js" } }, default: "./c.js" } },
        "deep/c.js",
      ],
      ["chorus-channel-d", { exports: { "./extra": "./x.js", ".": ["./d/d.js"] }, main: "./nope.js" }, "d/d.js"],
      ["chorus-channel-e", { module: "./m/e.js", main: "./e.cjs" }, "m/e.js"],
      ["chorus-channel-f", { main: "lib/f.js" }, "lib/f.js"],
      ["chorus-channel-g", {}, "index.js"],
    ];
    for (const [name, fields, file] of cases) {
      await installFixture(homeModules, {
        name,
        id: name.replace("chorus-channel-", ""),
        fields,
        file,
        source: source(name),
      });
    }
    const discovery = await discoverChannels(options);
    expect(discovery.channels.map((channel) => channel.entry)).toEqual(
      cases.map(([name, , file]) => join(homeModules, name, file)),
    );
    for (const channel of discovery.channels) await loadChannelPlugin(channel);
    expect(globalThis.__imported).toEqual(cases.map(([name]) => name));
  });
});
