import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, makeHome, runChorus } from "../support/loading-cli.js";
import { hermeticNpmEnv, packFixture } from "../support/loading-plugins.js";

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

describe("chorus plugins add|list|remove with a local tarball (npm offline, private cache)", () => {
  let home: string;
  let work: string;
  let env: NodeJS.ProcessEnv;
  let acme: string;
  let library: string;
  const chorus = (...args: string[]) => runChorus(args, { home, env, cwd: work, timeoutMs: 60_000 });
  const dependencies = async () =>
    (
      JSON.parse(await readFile(join(home, "plugins", "package.json"), "utf8")) as {
        dependencies?: Record<string, string>;
      }
    ).dependencies ?? {};

  beforeAll(async () => {
    // A port nobody listens on, so `chorus channels` does not depend on what runs on this machine.
    home = await makeHome({ gateway: { port: await freePort() } });
    work = await mkdtemp(join(tmpdir(), "chorus-pack-"));
    env = hermeticNpmEnv(home, join(work, "npm-cache"));
    [acme, library] = await Promise.all([
      packFixture("chorus-channel-acme", work, env),
      packFixture("acme-utils", work, env),
    ]);
  });
  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
    await rm(work, { recursive: true, force: true });
  });

  it("add installs the channel into <home>/plugins and says how to configure it", async () => {
    const run = await chorus("plugins", "add", acme);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`Installing ${acme} into ${join(home, "plugins")} …`);
    expect(run.stderr).toContain(
      'Installed channel "acme" (chorus-channel-acme@1.2.0). Configure it under channels.acme.',
    );
    expect(await exists(join(home, "plugins", "node_modules", "chorus-channel-acme", "index.js"))).toBe(true);
    expect(Object.keys(await dependencies())).toEqual(["chorus-channel-acme"]);
  });

  it("list shows it, and discovery finds it for `chorus channels`", async () => {
    const list = await chorus("plugins", "list");
    expect(list).toMatchObject({ code: 0, stdout: "acme         chorus-channel-acme@1.2.0\n" });
    const channels = JSON.parse((await chorus("channels", "--json")).stdout) as {
      channels: { id: string; source: string; configured: boolean }[];
    };
    expect(channels.channels).toContainEqual(
      expect.objectContaining({ id: "acme", source: "home", configured: false }),
    );
  });

  it("add refuses a package that is not a channel and removes it again", async () => {
    const run = await chorus("plugins", "add", library);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'error E_INVALID_INPUT: acme-utils@2.0.0 is not a Chorus channel plugin: its package.json has no "chorus" manifest. It was removed again.',
    );
    expect(await exists(join(home, "plugins", "node_modules", "acme-utils"))).toBe(false);
    expect(Object.keys(await dependencies())).toEqual(["chorus-channel-acme"]);
  });

  it("remove by channel id uninstalls it; list is empty; removing it again names what is installed", async () => {
    const run = await chorus("plugins", "remove", "acme");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("Removed acme.");
    expect(await exists(join(home, "plugins", "node_modules", "chorus-channel-acme"))).toBe(false);
    expect(await dependencies()).toEqual({});
    expect(await chorus("plugins", "list")).toMatchObject({
      code: 0,
      stdout: `No plugins installed in ${join(home, "plugins")}.\n`,
    });
    const again = await chorus("plugins", "remove", "acme");
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`error E_INVALID_INPUT: No plugin "acme" is installed in ${join(home, "plugins")}.`);
  });
});
