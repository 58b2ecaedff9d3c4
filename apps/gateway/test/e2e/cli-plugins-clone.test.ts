import { lstat, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createFakeServer, type FakeServer } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, makeHome, runChorus } from "../support/loading-cli.js";
import { hermeticNpmEnv } from "../support/loading-plugins.js";

const TELEGRAM_DIR = fileURLToPath(new URL("../../../../packages/channel-telegram", import.meta.url));

describe("chorus plugins add @chorus/channel-<id> from a clone, when the registry does not have it", () => {
  let registry: FakeServer;
  let home: string;
  let work: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    // A registry on 127.0.0.1 that has no package at all, as the real one has none of ours yet.
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

  it("installs the repository's own package instead, and says so", async () => {
    const run = await runChorus(["plugins", "add", "@chorus/channel-telegram"], { home, env, timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      `@chorus/channel-telegram is not on the npm registry; installing the repository's own package from ${TELEGRAM_DIR}.`,
    );
    expect(run.stderr).toMatch(/Installed channel "telegram" \(@chorus\/channel-telegram@\S+\)/);
    expect((await lstat(join(home, "plugins", "node_modules", "@chorus", "channel-telegram"))).isSymbolicLink()).toBe(
      true,
    );
    expect(registry.requests.some((r) => r.path.includes("channel-telegram"))).toBe(true);
    const list = await runChorus(["plugins", "list"], { home, env });
    expect(list.stdout).toMatch(/^telegram +@chorus\/channel-telegram@/m);
  });

  it("a package the clone does not have either: npm's 404, not a made-up fallback", async () => {
    const run = await runChorus(["plugins", "add", "chorus-channel-nosuch"], { home, env, timeoutMs: 60_000 });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("E404");
    expect(run.stderr).not.toContain("repository's own package");
  });
});
