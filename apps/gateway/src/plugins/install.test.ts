import { execFile } from "node:child_process";
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { ChorusError } from "@chorus/core";
import { createFakeServer, type FakeServer } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { discoverChannels } from "./discover.js";
import { PluginLoadError } from "./errors.js";
import { type FixturePackage, makeTempDir, removeTempDir, writePackage } from "./fixtures.test.util.js";
import { type InstallOptions, installPlugin, listInstalled, listInstalledPackages, removePlugin } from "./install.js";
import { loadChannelPlugin } from "./load.js";

const run = promisify(execFile);

let root: string;
let pluginsDir: string;
let npmOptions: InstallOptions;
let progress: string[];

beforeEach(async () => {
  root = await makeTempDir("chorus-install-");
  pluginsDir = join(root, "home", "plugins");
  progress = [];
  globalThis.__imported = [];
  // Hermetic npm: no registry, a private cache, none of the npm_* settings of whoever runs the tests.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
  npmOptions = {
    env: {
      ...env,
      npm_config_cache: join(root, "npm-cache"),
      npm_config_offline: "true",
      npm_config_update_notifier: "false",
    },
    onProgress: (line) => progress.push(line),
  };
});

afterEach(async () => {
  await removeTempDir(root);
});

/** Writes a fixture package and `npm pack`s it; returns the tarball's absolute path. */
async function tarball(fixture: FixturePackage): Promise<string> {
  const dir = await writePackage(
    join(root, "src", `${fixture.name.replace("/", "+")}-${fixture.version ?? "1.0.0"}`),
    fixture,
  );
  const out = join(root, "tarballs");
  await mkdir(out, { recursive: true });
  const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", out], { cwd: dir, env: npmOptions.env });
  const [packed] = JSON.parse(stdout) as { filename: string }[];
  return join(out, packed?.filename ?? "");
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

async function failure(promise: Promise<unknown>): Promise<ChorusError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ChorusError);
  return error as ChorusError;
}

describe("installPlugin", () => {
  it("installs a tarball into <home>/plugins and returns the channel it provides", async () => {
    const file = await tarball({ name: "chorus-channel-acme", version: "1.4.0" });
    const channels = await installPlugin(file, pluginsDir, npmOptions);
    const dir = join(pluginsDir, "node_modules", "chorus-channel-acme");
    expect(channels).toEqual([
      {
        id: "acme",
        packageName: "chorus-channel-acme",
        version: "1.4.0",
        dir,
        manifest: { kind: "channel", id: "acme", apiVersion: 1 },
        source: "home",
        entry: join(dir, "index.js"),
      },
    ]);
    const pkg = JSON.parse(await readFile(join(pluginsDir, "package.json"), "utf8"));
    expect(pkg).toMatchObject({ private: true, name: "chorus-plugins" });
    expect(Object.keys(pkg.dependencies)).toEqual(["chorus-channel-acme"]);
    expect(progress.some((line) => /added 1 package/.test(line))).toBe(true);
    expect(globalThis.__imported).toEqual([]);

    const discovery = await discoverChannels({ gatewayDir: root, pluginsDir, load: [], configDir: root });
    expect(discovery.channels.map((channel) => `${channel.id}:${channel.source}`)).toEqual(["acme:home"]);
    await expect(loadChannelPlugin(discovery.channels[0] as never)).resolves.toMatchObject({ id: "acme" });

    expect(await listInstalled(pluginsDir)).toEqual(channels);
    const packages = await listInstalledPackages(pluginsDir);
    expect(packages).toHaveLength(1);
    expect(packages[0]).toMatchObject({ packageName: "chorus-channel-acme", version: "1.4.0", channel: channels[0] });
    expect(packages[0]?.spec).toMatch(/^file:.*chorus-channel-acme-1\.4\.0\.tgz$/);
  });

  it("installs a scoped package given as a path relative to `cwd`", async () => {
    const file = await tarball({ name: "@acme/chorus-channel-x", id: "x" });
    const channels = await installPlugin(`./tarballs/${file.split("/").pop()}`, pluginsDir, {
      ...npmOptions,
      cwd: root,
    });
    expect(channels.map((channel) => `${channel.packageName}:${channel.id}`)).toEqual(["@acme/chorus-channel-x:x"]);
  });

  it("refuses a package that is not a channel and removes it again", async () => {
    const file = await tarball({ name: "left-pad-ish", version: "3.0.0", manifest: null, source: "export {};\n" });
    const error = await failure(installPlugin(file, pluginsDir, npmOptions));
    expect(error).toBeInstanceOf(PluginLoadError);
    expect((error as PluginLoadError).reason).toBe("not-a-channel");
    expect(error.code).toBe("E_INVALID_INPUT");
    expect(error.message).toContain(
      'left-pad-ish@3.0.0 is not a Chorus channel plugin: its package.json has no "chorus" manifest. It was removed again.',
    );
    expect(await exists(join(pluginsDir, "node_modules", "left-pad-ish"))).toBe(false);
    expect(await listInstalledPackages(pluginsDir)).toEqual([]);
  });

  it("refuses an update built for another apiVersion and restores the previous version", async () => {
    await installPlugin(await tarball({ name: "chorus-channel-acme", version: "1.0.0" }), pluginsDir, npmOptions);
    const next = await tarball({
      name: "chorus-channel-acme",
      version: "2.0.0",
      manifest: { kind: "channel", id: "acme", apiVersion: 2 },
    });
    const error = await failure(installPlugin(next, pluginsDir, npmOptions));
    expect((error as PluginLoadError).reason).toBe("incompatible-api");
    expect(error.message).toMatch(
      /^chorus-channel-acme@2\.0\.0 declares apiVersion 2; this gateway speaks apiVersion 1\. .* The previous chorus-channel-acme@file:.*1\.0\.0\.tgz was restored\.$/,
    );
    const [installed] = await listInstalled(pluginsDir);
    expect(installed).toMatchObject({ id: "acme", packageName: "chorus-channel-acme", version: "1.0.0" });
  });

  it("fails with npm's last lines when npm fails", async () => {
    const error = await failure(installPlugin(join(root, "nowhere.tgz"), pluginsDir, npmOptions));
    expect(error.code).toBe("E_PLATFORM");
    expect(error.message).toContain(
      `npm install --ignore-scripts --no-audit --no-fund --save ${join(root, "nowhere.tgz")}`,
    );
    expect(error.message).toMatch(/exited with code [1-9]/);
    expect(error.message).toContain("nowhere.tgz");
    expect(error.message.split("\n").length).toBeGreaterThan(1);
  });

  it("says so when npm cannot be run", async () => {
    const error = await failure(
      installPlugin("chorus-channel-acme", pluginsDir, { ...npmOptions, npm: join(root, "no-npm") }),
    );
    expect(error.code).toBe("E_PLATFORM");
    expect(error.message).toContain("was not found on the PATH");
  });

  it("refuses specs npm would read as options", async () => {
    const error = await failure(installPlugin("--global", pluginsDir, npmOptions));
    expect(error.code).toBe("E_INVALID_INPUT");
    expect(await exists(pluginsDir)).toBe(false);
  });
});

describe("installPlugin: first-party channels outside a clone, and typos", () => {
  let registry: FakeServer;
  beforeEach(async () => {
    // A registry that has nothing and records what it is asked.
    registry = createFakeServer();
    registry.route("GET", "/*", () => ({ status: 404, json: { error: "Not found" } }));
    await registry.start();
  });
  afterEach(async () => {
    await registry.close();
  });
  const online = () => ({
    ...npmOptions,
    env: { ...npmOptions.env, npm_config_offline: "false", npm_config_registry: `${registry.url}/` },
  });

  it("@chorus/channel-<id> (or <id>) is not taken from the public registry, whose @chorus scope is not ours", async () => {
    for (const spec of ["@chorus/channel-slack", "slack", "@chorus/channel-slack@1.0.0"]) {
      const error = await failure(installPlugin(spec, pluginsDir, online()));
      expect(error.code, spec).toBe("E_INVALID_INPUT");
      expect(error.message).toBe(
        "@chorus/channel-slack is not installed from the public npm registry: Chorus is not published there, and the @chorus scope there is not ours, so a package of that name could be anyone's code.",
      );
      expect(error.hint).toContain("npx -y pnpm@12.4.2 chorus plugins add slack");
      expect(error.hint).toContain("@chorus:registry");
    }
    expect(registry.requests).toEqual([]);
    expect(await listInstalledPackages(pluginsDir)).toEqual([]);
  });

  it("with a registry configured for the @chorus scope, asks that one (and says in one line when it lacks the package)", async () => {
    const scoped = { ...online(), env: { ...online().env, "npm_config_@chorus:registry": `${registry.url}/` } };
    const error = await failure(installPlugin("telegram", pluginsDir, scoped));
    expect(error.code).toBe("E_INVALID_INPUT");
    expect(error.message).toBe("@chorus/channel-telegram is not on the npm registry npm is configured to use.");
    expect(registry.requests.map((request) => request.path)).toContain("/@chorus%2fchannel-telegram");
  });

  it("a channel id one or two letters off is refused with the one meant, asking no registry", async () => {
    const typo = await failure(installPlugin("telegrm", pluginsDir, online()));
    expect(typo.code).toBe("E_INVALID_INPUT");
    expect(typo.message).toBe('"telegrm" is not a channel: did you mean "telegram"?');
    expect(typo.hint).toBe("Run: chorus plugins add telegram");
    const scopedTypo = await failure(installPlugin("@chorus/channel-telegrm", pluginsDir, online()));
    expect(scopedTypo.message).toBe('There is no first-party channel "telegrm" (@chorus/channel-telegrm).');
    expect(scopedTypo.hint).toBe('Did you mean "telegram"? Run: chorus plugins add telegram');
    const unknown = await failure(installPlugin("@chorus/channel-matrix", pluginsDir, online()));
    expect(unknown.hint).toMatch(/^First-party channels: discord, feishu, /);
    expect(registry.requests).toEqual([]);
  });
});

describe("listInstalledPackages", () => {
  it("says why a recorded package is not a usable channel", async () => {
    await mkdir(pluginsDir, { recursive: true });
    const dependencies = { "chorus-channel-gone": "^1.0.0", "plain-lib": "^2.0.0", "chorus-channel-ok": "^1.0.0" };
    await writeFile(join(pluginsDir, "package.json"), JSON.stringify({ dependencies }));
    await writePackage(join(pluginsDir, "node_modules", "plain-lib"), { name: "plain-lib", manifest: null });
    await writePackage(join(pluginsDir, "node_modules", "chorus-channel-ok"), { name: "chorus-channel-ok", id: "ok" });
    const packages = await listInstalledPackages(pluginsDir);
    expect(packages.map(({ packageName, channel, problem }) => [packageName, channel?.id, problem])).toEqual([
      [
        "chorus-channel-gone",
        undefined,
        `not installed in ${join(pluginsDir, "node_modules", "chorus-channel-gone")}; reinstall it with: chorus plugins add chorus-channel-gone`,
      ],
      ["chorus-channel-ok", "ok", undefined],
      ["plain-lib", undefined, 'not a Chorus channel plugin (no "chorus" manifest in its package.json)'],
    ]);
    expect((await listInstalled(pluginsDir)).map((channel) => channel.id)).toEqual(["ok"]);
  });
});

describe("removePlugin", () => {
  it("uninstalls by channel id or package name", async () => {
    await installPlugin(await tarball({ name: "chorus-channel-acme" }), pluginsDir, npmOptions);
    await installPlugin(await tarball({ name: "@acme/chorus-channel-x", id: "x" }), pluginsDir, npmOptions);
    const removed = await removePlugin("acme", pluginsDir, npmOptions);
    expect(removed).toMatchObject({ packageName: "chorus-channel-acme", channel: { id: "acme" } });
    expect(await exists(join(pluginsDir, "node_modules", "chorus-channel-acme"))).toBe(false);
    await removePlugin("@acme/chorus-channel-x", pluginsDir, npmOptions);
    expect(await listInstalledPackages(pluginsDir)).toEqual([]);
    const discovery = await discoverChannels({ gatewayDir: root, pluginsDir, load: [], configDir: root });
    expect(discovery.channels).toEqual([]);
  });

  it("lists what is installed when asked to remove something unknown", async () => {
    await installPlugin(await tarball({ name: "chorus-channel-acme" }), pluginsDir, npmOptions);
    const error = await failure(removePlugin("telegram", pluginsDir, npmOptions));
    expect(error.code).toBe("E_INVALID_INPUT");
    expect(error.message).toBe(
      `No plugin "telegram" is installed in ${pluginsDir}. Installed: chorus-channel-acme (channel acme).`,
    );
    const empty = await failure(removePlugin("acme", join(root, "empty"), npmOptions));
    expect(empty.message).toContain("Nothing is installed there; add a plugin with: chorus plugins add <npm-spec>");
  });
});
