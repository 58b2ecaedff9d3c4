import { cp, mkdir, realpath } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { removeHome } from "../support/gateway-process.js";
import { type CliRun, makeHome, runChorus, STACK_LINE } from "../support/loading-cli.js";
import { fixtureDir, installIntoHome, moduleRecords } from "../support/loading-plugins.js";

const homes: string[] = [];
afterEach(async () => {
  await Promise.all(homes.splice(0).map(removeHome));
});

/** A home with this config (on a free port) and these fixture packages in `<home>/plugins`. */
async function homeWith(
  config: Record<string, unknown>,
  fixtures: Parameters<typeof installIntoHome>[1][] = [],
): Promise<string> {
  const home = await makeHome({ ...config, gateway: { port: 0, ...(config.gateway as object | undefined) } });
  homes.push(home);
  for (const fixture of fixtures) await installIntoHome(home, fixture);
  return home;
}

/** `chorus start` that must refuse to start: exit 1, the error on stderr, no stack trace anywhere. */
async function refusedStart(home: string, env: NodeJS.ProcessEnv = {}, args: string[] = []): Promise<CliRun> {
  const run = await runChorus(["start", ...args], { home, env });
  expect(run.started, `the gateway started:\n${run.stdout}${run.stderr}`).toBe(false);
  expect(run.code, run.stdout + run.stderr).toBe(1);
  expect(run.stderr).toMatch(/^error E_[A-Z_]+: /);
  expect(`${run.stdout}${run.stderr}`).not.toMatch(STACK_LINE);
  return run;
}

describe("chorus start refuses a channel it cannot load, saying why and what to do", () => {
  it("an unknown third-party channel: lists the installed channels, names no package that may exist nowhere", async () => {
    const home = await homeWith({ channels: { matrix: {} } }, ["chorus-channel-acme", "channel-telegram"]);
    const records = moduleRecords(home);
    const run = await refusedStart(home, records.env);
    expect(run.stderr).toContain(
      'error E_INVALID_INPUT: No installed plugin provides channel "matrix" (installed channels: acme, telegram, webchat).\n',
    );
    expect(run.stderr).toContain(
      "hint: Install the plugin that provides it: chorus plugins add <its npm package, tarball or directory> (docs/install.md).",
    );
    expect(run.stderr).not.toContain("chorus-channel-matrix");
    expect(await records.imports()).toEqual([]);
  });

  it("a first-party channel that is not installed: the command once, never the config's secret", async () => {
    const home = await homeWith({ channels: { slack: { botToken: "xoxb-not-used-0123456789" } } });
    const run = await refusedStart(home);
    expect(run.stderr).toContain(
      'error E_INVALID_INPUT: Channel "slack" is not installed (installed channels: webchat).',
    );
    expect(run.stderr.split("chorus plugins add slack").length - 1).toBe(1);
    expect(run.stderr).not.toContain("xoxb-not-used");
  });

  it("a typo of a channel id: did you mean, and no package made up from the typo", async () => {
    const home = await homeWith({ channels: { telegrm: { botToken: "123:abc" } } }, ["channel-telegram"]);
    const run = await refusedStart(home);
    expect(run.stderr).toContain('No channel "telegrm": did you mean "telegram"?');
    expect(run.stderr).toContain('hint: Write "telegram" (channels.telegram in the config).');
    expect(run.stderr).not.toContain("chorus-channel-telegrm");
  });

  it("a package built for apiVersion 2 is refused from its manifest, without importing it", async () => {
    const home = await homeWith({ channels: { future: {} } }, ["chorus-channel-future"]);
    const records = moduleRecords(home);
    const run = await refusedStart(home, records.env);
    expect(run.stderr).toContain(
      "error E_INVALID_INPUT: chorus-channel-future@3.0.0 declares apiVersion 2; this gateway speaks apiVersion 1. Install a version of the plugin built for apiVersion 1, or upgrade the gateway.",
    );
    expect(await records.imports()).toEqual([]);
    const modules = await records.modules();
    expect(modules.length).toBeGreaterThan(0);
    expect(modules.filter((url) => url.includes("chorus-channel-future"))).toEqual([]);
  });

  it("a plugins.load entry that is not a channel package is named as such when its channel is configured", async () => {
    const home = await homeWith({ plugins: { load: ["./libs/acme-utils"] }, channels: { acme: {} } });
    await mkdir(join(home, "libs"));
    await cp(fixtureDir("acme-utils"), join(home, "libs", "acme-utils"), { recursive: true });
    const dir = await realpath(join(home, "libs", "acme-utils"));
    const run = await refusedStart(home);
    expect(run.stderr).toContain('No installed plugin provides channel "acme" (installed channels: webchat).');
    expect(run.stderr).toContain(
      `Problems found while looking for plugins:\n- plugins.load entry "${dir}": acme-utils@2.0.0 (${dir}) is not a Chorus channel plugin: its package.json has no "chorus" manifest. A channel package declares "chorus": { "kind": "channel", "id": "<id>", "apiVersion": 1 }.`,
    );
  });

  it("a plugin that throws while it is imported: the thrown message, the package, and how to reinstall", async () => {
    const home = await homeWith({ channels: { broken: {} } }, ["chorus-channel-broken"]);
    const run = await refusedStart(home);
    expect(run.stderr).toContain(
      "error E_PLATFORM: Plugin chorus-channel-broken@0.4.1 failed to load: broken channel: BROKEN_API_KEY is not set\n",
    );
    expect(run.stderr).toContain("reinstall it with: chorus plugins add chorus-channel-broken");
  });
});

describe("chorus start refuses a config it cannot run", () => {
  it("a value of the wrong type: names the key path, what was expected and what was given", async () => {
    const home = await homeWith({ gateway: { shutdownTimeoutMs: "10000" } });
    const run = await refusedStart(home);
    expect(run.stderr).toContain(`error E_INVALID_INPUT: Invalid config ${join(home, "chorus.json")}:`);
    expect(run.stderr).toContain(
      '  - gateway.shutdownTimeoutMs: expected a number, got "10000" (write 10000 without quotes)',
    );
  });

  it("a plugin's own key of the wrong type: named under channels.<id> by the plugin's schema", async () => {
    const home = await homeWith({ channels: { acme: { greeting: 42 } } }, ["chorus-channel-acme"]);
    const run = await refusedStart(home);
    expect(run.stderr).toContain("  - channels.acme.greeting: expected a string (got 42)");
    expect(run.stderr).toContain("hint: Fix the Acme Chat keys listed above");
  });

  it("binding 0.0.0.0 without gateway.auth.token (gateway.bind in the config): the validation names the key", async () => {
    const home = await homeWith({ gateway: { bind: "0.0.0.0" } });
    const run = await refusedStart(home);
    expect(run.stderr).toContain(
      '  - gateway.bind: gateway.bind is "0.0.0.0", reachable from other machines, and gateway.auth.token is not set: refused at start',
    );
  });

  it("binding 0.0.0.0 without gateway.auth.token (--bind on the command line)", async () => {
    const home = await homeWith({});
    const run = await refusedStart(home, {}, ["--bind", "0.0.0.0"]);
    expect(run.stderr).toContain(
      "error E_INVALID_INPUT: refusing to bind 0.0.0.0 without gateway.auth.token: anyone on the network could drive the agent\n",
    );
    expect(run.stderr).toContain("hint: Set gateway.auth.token (16+ characters), or bind to 127.0.0.1.");
  });
});
