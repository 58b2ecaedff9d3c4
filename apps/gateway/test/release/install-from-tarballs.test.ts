import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createFakeTelegram, type FakeTelegram } from "@chorus/channel-telegram/testing";
import { waitFor } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/*
 * The release check: every publishable package packed as it would be published (`pnpm pack` turns
 * `workspace:` ranges into versions), the gateway and one channel installed from those tarballs
 * with plain npm into an empty directory (our packages are on no registry: every `@chorus/*` name
 * points at its tarball; third-party packages come from npm's cache or the registry), then the
 * installed `chorus` started, and the channel found and running in `chorus channels`.
 */

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

/** How to run pnpm: the one running this test (`pnpm test`), else the pinned one through npx. */
function pnpm(): [string, string[]] {
  const execpath = process.env.npm_execpath;
  if (execpath && /pnpm/.test(execpath)) return [process.execPath, [execpath]];
  const root = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { packageManager?: string };
  return ["npx", ["-y", root.packageManager ?? "pnpm@12.4.2"]];
}

async function publishableDirs(): Promise<string[]> {
  const dirs: string[] = [];
  for (const group of ["packages", "apps"]) {
    for (const name of await readdir(join(ROOT, group))) {
      const manifest = join(ROOT, group, name, "package.json");
      if (!existsSync(manifest)) continue;
      const pkg = JSON.parse(await readFile(manifest, "utf8")) as { private?: boolean };
      if (pkg.private !== true) dirs.push(join(ROOT, group, name));
    }
  }
  return dirs;
}

describe("release check: installable as published", () => {
  let work: string;
  let telegram: FakeTelegram;
  let gateway: ChildProcess | undefined;
  const tarballs = new Map<string, string>();

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), "chorus-release-"));
    telegram = createFakeTelegram();
    await telegram.start();
  });
  afterAll(async () => {
    if (gateway && gateway.exitCode === null) gateway.kill("SIGKILL");
    await telegram?.close();
    await rm(work, { recursive: true, force: true });
  });

  it("packs every publishable package, with no workspace: range left", async () => {
    const out = join(work, "tarballs");
    await mkdir(out);
    const [command, prefix] = pnpm();
    for (const dir of await publishableDirs()) {
      await run(command, [...prefix, "pack", "--pack-destination", out], { cwd: dir, timeout: 60_000 });
      const pkg = JSON.parse(await readFile(join(dir, "package.json"), "utf8")) as { name: string; version: string };
      const file = (await readdir(out)).find((f) => f.startsWith(`${pkg.name.replace("@", "").replace("/", "-")}-${pkg.version}`));
      expect(file, `tarball of ${pkg.name}`).toBeDefined();
      tarballs.set(pkg.name, join(out, file as string));
    }
    expect([...tarballs.keys()]).toEqual(expect.arrayContaining(["@chorus/core", "@chorus/gateway", "@chorus/channel-telegram"]));
    const { stdout } = await run("tar", ["-xOzf", tarballs.get("@chorus/gateway") as string, "package/package.json"]);
    expect(stdout).not.toContain("workspace:");
    expect(JSON.parse(stdout).dependencies["@chorus/core"]).toMatch(/^\^?\d+\.\d+\.\d+/);
  }, 180_000);

  it("npm installs the gateway and a channel from the tarballs; chorus starts and lists the channel running", async () => {
    expect(tarballs.size).toBeGreaterThan(3);
    const app = join(work, "app");
    await mkdir(app);
    const spec = (name: string) => `file:${tarballs.get(name)}`;
    const direct = ["@chorus/gateway", "@chorus/channel-telegram", "@chorus/core", "@chorus/channel-kit"];
    await writeFile(
      join(app, "package.json"),
      JSON.stringify({
        name: "chorus-release-check",
        private: true,
        dependencies: Object.fromEntries(direct.map((name) => [name, spec(name)])),
        // Every other reference to one of our packages resolves to its tarball too.
        overrides: Object.fromEntries([...tarballs.keys()].map((name) => [name, spec(name)])),
      }),
    );
    const env: NodeJS.ProcessEnv = { ...process.env, npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false" };
    for (const key of Object.keys(env)) if (/^npm_(package|lifecycle|config_(workspace|prefix))/i.test(key)) delete env[key];
    await run("npm", ["install", "--prefer-offline", "--ignore-scripts", "--no-package-lock"], { cwd: app, env, timeout: 240_000 });
    const chorus = join(app, "node_modules", ".bin", "chorus");
    expect(existsSync(chorus)).toBe(true);

    const home = join(work, "home");
    await mkdir(home);
    await writeFile(join(home, "chorus.json"), JSON.stringify({ gateway: { port: 0 }, channels: { telegram: telegram.config() } }));
    const cliEnv = { ...env, CHORUS_HOME: home, CHORUS_CONFIG: "", NO_PROXY: "127.0.0.1,localhost" };
    const version = await run(chorus, ["-v"], { env: cliEnv });
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);

    let output = "";
    gateway = spawn(chorus, ["start"], { cwd: work, env: cliEnv, stdio: ["ignore", "pipe", "pipe"] });
    gateway.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    gateway.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const url = await waitFor(() => /listening on (\S+)/.exec(output)?.[1] ?? (gateway?.exitCode !== null ? "exited" : undefined), {
      timeoutMs: 20_000,
      message: "the installed gateway did not start",
    });
    expect(url, output).not.toBe("exited");
    const token = (await readFile(join(home, "gateway-token"), "utf8")).trim();
    const channels = await waitFor(
      async () => {
        const { stdout } = await run(chorus, ["channels", "--json", "--url", url, "--token", token], { env: cliEnv });
        const listed = JSON.parse(stdout) as { channels: { id: string; packageName: string; accounts?: { status?: { state: string } }[] }[] };
        const found = listed.channels.find((c) => c.id === "telegram");
        return JSON.stringify(found ?? {}).includes('"running"') ? listed : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 300, message: "telegram running in chorus channels" },
    );
    const found = channels.channels.find((c) => c.id === "telegram");
    expect(found?.packageName).toBe("@chorus/channel-telegram");
    gateway.kill("SIGTERM");
  }, 300_000);
});
