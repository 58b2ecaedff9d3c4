import { lstat, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createFakeServer, type FakeServer } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, makeHome, runChorus } from "../support/loading-cli.js";
import { hermeticNpmEnv } from "../support/loading-plugins.js";

const TELEGRAM_DIR = fileURLToPath(new URL("../../../../packages/channel-telegram", import.meta.url));

describe("chorus plugins add <first-party channel> from a clone: the clone's package, no registry asked", () => {
  let registry: FakeServer;
  let home: string;
  let work: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    // A registry on 127.0.0.1 that has no package at all and records what it is asked: a first-party
    // name must never reach it (the public registry's @chorus scope is not ours).
    registry = createFakeServer();
    registry.route("GET", "/*", () => ({ status: 404, json: { error: "Not found" } }));
    await registry.start();
    home = await makeHome({ gateway: { port: await freePort() } });
    work = await mkdtemp(join(tmpdir(), "chorus-clone-"));
    env = {
      ...hermeticNpmEnv(home, join(work, "npm-cache")),
      npm_config_offline: "false",
      npm_config_registry: `${registry.url}/`,
    };
  });
  afterAll(async () => {
    await registry?.close();
    await rm(home, { recursive: true, force: true });
    await rm(work, { recursive: true, force: true });
  });

  it("@chorus/channel-telegram installs the clone's own package, built, and says where it came from; npm prints no error", async () => {
    const run = await runChorus(["plugins", "add", "@chorus/channel-telegram"], { home, env, timeoutMs: 90_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(
      new RegExp(`Installing @chorus/channel-telegram@\\S+ from this clone, ${TELEGRAM_DIR}; no registry is asked\\.`),
    );
    expect(run.stderr).toMatch(/Installed channel "telegram" \(@chorus\/channel-telegram@\S+\)/);
    expect(run.stderr).not.toMatch(/E404|npm error|not on the npm registry/);
    expect((await lstat(join(home, "plugins", "node_modules", "@chorus", "channel-telegram"))).isSymbolicLink()).toBe(
      true,
    );
    expect(registry.requests).toEqual([]);
    const list = await runChorus(["plugins", "list"], { home, env });
    expect(list.stdout).toMatch(/^telegram +@chorus\/channel-telegram@/m);
  });

  it("a bare first-party id does the same", async () => {
    const run = await runChorus(["plugins", "add", "nextcloud"], { home, env, timeoutMs: 90_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/Installed channel "nextcloud" \(@chorus\/channel-nextcloud@\S+\)/);
    expect(registry.requests).toEqual([]);
  });

  it("a typo of a channel id: did you mean, nothing installed, no registry asked", async () => {
    const run = await runChorus(["plugins", "add", "telegrm"], { home, env, timeoutMs: 60_000 });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('"telegrm" is not a channel: did you mean "telegram"?');
    expect(run.stderr).toContain("chorus plugins add telegram");
    expect(run.stderr).not.toContain("chorus-channel-telegrm");
    expect(registry.requests).toEqual([]);
  });

  it("a third-party package the registry does not have: one line saying so, not npm's 404 page", async () => {
    const run = await runChorus(["plugins", "add", "chorus-channel-nosuch"], { home, env, timeoutMs: 60_000 });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("chorus-channel-nosuch is not on the npm registry npm is configured to use.");
    expect(run.stderr).not.toContain("from this clone");
    expect(registry.requests.map((request) => request.path)).toEqual(["/chorus-channel-nosuch"]);
  });
});
