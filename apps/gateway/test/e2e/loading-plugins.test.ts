import { realpath } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { eventually } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { freePort, makeHome, runChorus } from "../support/loading-cli.js";
import { fixtureDir, installIntoHome, type ModuleRecords, moduleRecords } from "../support/loading-plugins.js";

/** The file URL the gateway imports for a package installed in `<home>/plugins`. */
async function entryUrl(installedDir: string): Promise<string> {
  return pathToFileURL(join(await realpath(installedDir), "index.js")).href;
}

const byId = (channels: { id: string; status: { state: string } }[]) =>
  channels.map((c) => [c.id, c.status.state]).sort(([a], [b]) => String(a).localeCompare(String(b)));

describe("plugins installed under <home>/plugins, in the real gateway process", () => {
  let home: string | undefined;
  let gateway: GatewayProcess | undefined;
  afterEach(async () => {
    await gateway?.stop();
    gateway = undefined;
    if (home) await removeHome(home);
  });

  /** A home with acme and the Telegram stand-in installed; the process records its module registry. */
  async function setup(
    config?: Record<string, unknown>,
  ): Promise<{ acme: string; telegram: string; records: ModuleRecords }> {
    home = await makeHome(config);
    const acme = await installIntoHome(home, "chorus-channel-acme");
    const telegram = await installIntoHome(home, "channel-telegram");
    return { acme, telegram, records: moduleRecords(home) };
  }

  it("loads the configured third-party channel and never imports the unconfigured first-party one", async () => {
    const { acme, telegram, records } = await setup();
    gateway = await startGatewayProcess({ home, config: { channels: { acme: { greeting: "hi" } } }, env: records.env });

    const { status, json } = await gateway.call("GET", "/v1/channels");
    expect(status).toBe(200);
    expect(byId(json.channels)).toEqual([
      ["acme", "running"],
      ["webchat", "running"],
    ]);
    expect(json.channels.find((c: { id: string }) => c.id === "acme")).toMatchObject({
      account: "default",
      label: "Acme Chat",
      status: { state: "running", detail: "greeting hi", restarts: 0 },
      capabilities: { reactions: { list: true } },
    });

    const modules = await records.modules();
    expect(modules).toContain(pathToFileURL(CLI).href);
    expect(modules).toContain(await entryUrl(acme));
    const telegramDir = pathToFileURL(await realpath(telegram)).href;
    expect(modules.filter((url) => url.startsWith(telegramDir))).toEqual([]);
    expect(modules.filter((url) => url.includes("channel-telegram"))).toEqual([]);
    expect(await records.imports()).toEqual(["chorus-channel-acme"]);
  });

  it("imports the first-party stand-in once channels.telegram is configured (the registry check sees imports)", async () => {
    const { acme, telegram, records } = await setup();
    gateway = await startGatewayProcess({ home, config: { channels: { telegram: {} } }, env: records.env });

    const { json } = await gateway.call("GET", "/v1/channels");
    expect(byId(json.channels)).toEqual([
      ["telegram", "running"],
      ["webchat", "running"],
    ]);
    const modules = await records.modules();
    expect(modules).toContain(await entryUrl(telegram));
    expect(modules).not.toContain(await entryUrl(acme));
    expect(await records.imports()).toEqual(["@chorus/channel-telegram"]);
  });

  it("a plugins.load entry that is not a channel package: the gateway starts and warns, naming it", async () => {
    home = await makeHome();
    const library = fixtureDir("acme-utils");
    gateway = await startGatewayProcess({ home, config: { plugins: { load: [library] } } });
    await eventually(() =>
      expect(gateway?.logs()).toContainEqual(
        expect.objectContaining({
          level: 40,
          msg: "plugin discovery problem",
          problem: expect.objectContaining({
            reason: "not-a-channel",
            message: expect.stringContaining(
              `acme-utils@2.0.0 (${library}) is not a Chorus channel plugin: its package.json has no "chorus" manifest.`,
            ),
          }),
        }),
      ),
    );
    const { json } = await gateway.call("GET", "/v1/channels");
    expect(byId(json.channels)).toEqual([["webchat", "running"]]);
  });

  it("`chorus channels` lists installed channels from their manifests without importing any of them", async () => {
    // A port nobody listens on: the listing must not depend on a gateway running on this machine.
    const { records } = await setup({ gateway: { port: await freePort() }, channels: { acme: {} } });
    const run = await runChorus(["channels", "--json"], { home: home as string, env: records.env });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const listing = JSON.parse(run.stdout) as {
      gatewayRunning: boolean;
      channels: { id: string; packageName: string; source: string; configured: boolean }[];
    };
    expect(listing.gatewayRunning).toBe(false);
    expect(listing.channels.map((c) => [c.id, c.packageName, c.source, c.configured])).toEqual([
      ["webchat", "@chorus/gateway (built in)", "builtin", true],
      ["acme", "chorus-channel-acme", "home", true],
      ["telegram", "@chorus/channel-telegram", "home", false],
    ]);
    expect((await records.modules()).length).toBeGreaterThan(0);
    expect((await records.modules()).filter((url) => url.includes("/plugins/node_modules/"))).toEqual([]);
    expect(await records.imports()).toEqual([]);
  });
});
