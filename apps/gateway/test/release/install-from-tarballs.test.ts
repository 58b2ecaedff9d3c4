// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the Dockerfile's ${CHANNELS} is a literal shell reference
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createFakeTelegram, type FakeTelegram } from "@chorus/channel-telegram/testing";
import { waitFor } from "@chorus/testkit";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/*
 * The release check: `scripts/install-release.sh` — the same script the container image's build
 * runs — packs every publishable package as it would be published (`pnpm pack` turns `workspace:`
 * ranges into versions) and installs the gateway and one channel from those tarballs with plain
 * npm, install scripts on, into an empty directory (every `@chorus/*` name points at its tarball;
 * third-party packages come from the registry). It runs as on a new machine: a fresh HOME (no npm
 * cache, no `~/.npmrc`), Node's headers pointed at an empty directory and every compiler on PATH
 * refusing to run, so an install step that compiles or downloads a binary fails here. Then the
 * installed `chorus` starts and finds the channel, and the installed `chorus mcp` serves the MCP
 * SDK's client. No model provider package is installed with it: a config naming one is refused at
 * start with the npm command, and after that command the gateway starts.
 */

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

/** The pnpm running this test (`pnpm test`), else the pinned one through npx. */
function pnpmCommand(): string {
  const execpath = process.env.npm_execpath;
  if (!execpath || !/pnpm/.test(execpath)) return "npx -y pnpm@12.4.2";
  // pnpm is a script run by node in some installs, a native executable in others.
  return /\.[cm]?js$/.test(execpath) ? `${process.execPath} ${execpath}` : execpath;
}

describe("release check: installable as published", () => {
  let work: string;
  let dest: string;
  let telegram: FakeTelegram;
  let gateway: ChildProcess | undefined;
  const env: NodeJS.ProcessEnv = { ...process.env, npm_config_update_notifier: "false", PNPM: pnpmCommand() };
  for (const key of Object.keys(env))
    if (/^npm_(package|lifecycle|config_(workspace|prefix|node_gyp|nodedir))/i.test(key)) delete env[key];

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), "chorus-release-"));
    dest = join(work, "opt-chorus");
    Object.assign(env, await newMachine(join(work, "machine")));
    telegram = createFakeTelegram();
    await telegram.start();
  });
  afterAll(async () => {
    if (gateway && gateway.exitCode === null) gateway.kill("SIGKILL");
    await telegram?.close();
    await rm(work, { recursive: true, force: true });
  });

  it("scripts/install-release.sh packs every package (no workspace: range left) and npm installs from the tarballs, compiling nothing", async () => {
    const installed = await run("bash", [join(ROOT, "scripts", "install-release.sh"), dest, "telegram"], {
      cwd: work,
      env,
      timeout: 580_000,
    });
    const said = `${installed.stdout}${installed.stderr}`;
    expect(said).not.toMatch(/corrupted|compiler refused|gyp (ERR|info)|prebuild-install/i);
    const tarballs = await readdir(join(dest, "tarballs"));
    expect(tarballs.map((file) => file.replace(/-\d+\.\d+\.\d+.*$/, "")).sort()).toEqual(
      expect.arrayContaining([
        "chorus-core",
        "chorus-channel-kit",
        "chorus-gateway",
        "chorus-channel-telegram",
        "chorus-testkit",
      ]),
    );
    expect(tarballs.some((file) => file.startsWith("chorus-channel-template"))).toBe(false);
    const gatewayTarball = join(dest, "tarballs", tarballs.find((f) => f.startsWith("chorus-gateway-")) as string);
    const { stdout } = await run("tar", ["-xOzf", gatewayTarball, "package/package.json"]);
    expect(stdout).not.toContain("workspace:");
    // Installed, not linked: real directories under node_modules.
    expect(existsSync(join(dest, "node_modules", "@chorus", "core", "dist", "bundle", "index.js"))).toBe(true);
    // One copy of each package's code: the bundle, not also tsc's modules.
    expect(existsSync(join(dest, "node_modules", "@chorus", "core", "dist", "index.js"))).toBe(false);
    expect(existsSync(join(dest, "node_modules", ".bin", "chorus"))).toBe(true);
    // The model specification is (the demo agent is a model of it); the AI SDK and the providers are not.
    expect(existsSync(join(dest, "node_modules", "@ai-sdk", "provider", "package.json"))).toBe(true);
    expect(existsSync(join(dest, "node_modules", "ai"))).toBe(false);
    for (const provider of ["@ai-sdk/openai", "@ai-sdk/anthropic", "@ai-sdk/google", "ollama-ai-provider-v2"])
      expect(existsSync(join(dest, "node_modules", provider)), provider).toBe(false);
  }, 600_000);

  it("the installed chorus starts and lists the channel, running", async () => {
    const chorus = join(dest, "node_modules", ".bin", "chorus");
    const home = join(work, "home");
    await mkdir(home);
    await writeFile(
      join(home, "chorus.json"),
      JSON.stringify({ gateway: { port: 0 }, channels: { telegram: telegram.config() } }),
    );
    const cliEnv = { ...env, CHORUS_HOME: home, CHORUS_CONFIG: "", NO_PROXY: "127.0.0.1,localhost" };
    expect((await run(chorus, ["-v"], { env: cliEnv })).stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);

    let output = "";
    gateway = spawn(chorus, ["start"], { cwd: work, env: cliEnv, stdio: ["ignore", "pipe", "pipe"] });
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
    };
    gateway.stdout?.on("data", collect);
    gateway.stderr?.on("data", collect);
    const url = await waitFor(
      () => /listening on (\S+)/.exec(output)?.[1] ?? (gateway?.exitCode !== null ? "exited" : undefined),
      {
        timeoutMs: 20_000,
        message: "the installed gateway did not start",
      },
    );
    expect(url, output).not.toBe("exited");
    const token = (await readFile(join(home, "gateway-token"), "utf8")).trim();
    const telegramRow = await waitFor(
      async () => {
        const { stdout } = await run(chorus, ["channels", "--json", "--url", url, "--token", token], { env: cliEnv });
        const row = (JSON.parse(stdout) as { channels: { id: string; packageName: string }[] }).channels.find(
          (c) => c.id === "telegram",
        );
        return JSON.stringify(row ?? {}).includes('"running"') ? row : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 300, message: "telegram running in chorus channels" },
    );
    expect(telegramRow?.packageName).toBe("@chorus/channel-telegram");

    // The MCP server is the gateway's own: no MCP SDK installed, and `chorus mcp` serves the SDK's client.
    expect(existsSync(join(dest, "node_modules", "@modelcontextprotocol"))).toBe(false);
    const mcp = new Client({ name: "release-check", version: "1" });
    await mcp.connect(
      new StdioClientTransport({
        command: chorus,
        args: ["mcp", "--url", url, "--token", token, "--no-start"],
        env: cliEnv as Record<string, string>,
        stderr: "pipe",
      }),
    );
    try {
      const tools = (await mcp.listTools()).tools.map((tool) => tool.name);
      expect(tools).toEqual(expect.arrayContaining(["message_telegram", "list_channels", "recent_messages"]));
    } finally {
      await mcp.close();
    }
    expect(output).toContain(`Webchat: ${url}/?token=`);
    gateway.kill("SIGTERM");
  }, 60_000);

  it("outside a clone, chorus plugins add @chorus/channel-<id> refuses the public registry (the @chorus scope there is not ours)", async () => {
    const chorus = join(dest, "node_modules", ".bin", "chorus");
    const home = join(work, "home-plugins");
    await mkdir(home);
    const cliEnv = { ...env, CHORUS_HOME: home, CHORUS_CONFIG: "" };
    const refused = await run(chorus, ["plugins", "add", "@chorus/channel-slack"], { env: cliEnv }).then(
      () => ({ code: 0, stderr: "" }),
      (error: { code?: number; stderr?: string }) => ({ code: error.code, stderr: error.stderr ?? "" }),
    );
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).toContain(
      "@chorus/channel-slack is not installed from the public npm registry: Chorus is not published there, and the @chorus scope there is not ours",
    );
    expect(refused.stderr).not.toMatch(/E404|npm error/);
    expect(existsSync(join(home, "plugins", "node_modules", "@chorus", "channel-slack"))).toBe(false);
  });

  it("a config naming a provider that is not installed: start refuses with the npm command; after it, the gateway starts", async () => {
    const chorus = join(dest, "node_modules", ".bin", "chorus");
    const home = join(work, "home-openai");
    await mkdir(home);
    const model = {
      provider: "openai",
      model: "gpt-4o-mini",
      apiKey: "sk-release-check",
      baseURL: "http://127.0.0.1:9/v1",
    };
    await writeFile(
      join(home, "chorus.json"),
      JSON.stringify({ gateway: { port: 0 }, agents: { list: [{ id: "main", model }] } }),
    );
    const cliEnv = { ...env, CHORUS_HOME: home, CHORUS_CONFIG: "", NO_PROXY: "127.0.0.1,localhost" };
    const refused = await run(chorus, ["start"], { env: cliEnv, timeout: 20_000 }).then(
      () => ({ code: 0, stderr: "" }),
      (error: { code?: number; stderr?: string }) => ({ code: error.code, stderr: error.stderr ?? "" }),
    );
    const { peerDependencies } = JSON.parse(
      await readFile(join(dest, "node_modules", "@chorus", "gateway", "package.json"), "utf8"),
    ) as { peerDependencies: Record<string, string> };
    const install = `cd ${dest} && npm i @ai-sdk/openai@${peerDependencies["@ai-sdk/openai"]}`;
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).toContain(
      `agent "main" uses provider "openai", whose package @ai-sdk/openai is not installed next to the gateway. Install it with: ${install}`,
    );
    const doctor = await run(chorus, ["doctor"], { env: cliEnv }).catch((error: { stdout: string }) => error);
    expect(doctor.stdout).toContain(`✗ agent main: provider openai: @ai-sdk/openai is missing\n    fix: ${install}`);

    // The command as printed (npm's cache serves it when it holds the package).
    await run("bash", ["-c", `${install} --prefer-offline --no-audit --no-fund`], { env, timeout: 170_000 });
    const started = spawn(chorus, ["start"], { cwd: work, env: cliEnv, stdio: ["ignore", "pipe", "pipe"] });
    gateway = started;
    let output = "";
    started.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    started.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const listening = await waitFor(
      () => (/listening on \S+/.test(output) ? "listening" : started.exitCode !== null ? "exited" : undefined),
      { timeoutMs: 20_000, message: "the gateway with its provider installed did not start" },
    );
    expect(listening, output).toBe("listening");
    const doctorAfter = await run(chorus, ["doctor"], { env: cliEnv }).catch((error: { stdout: string }) => error);
    expect(doctorAfter.stdout).toMatch(/✓ agent main: provider openai: @ai-sdk\/openai \d+\.\d+\.\d+\S* installed\n/);
    started.kill("SIGTERM");
  }, 240_000);

  it("the container image builds with exactly these steps, and runs what they install", async () => {
    const dockerfile = await readFile(join(ROOT, "deploy", "Dockerfile"), "utf8");
    const runs = [...dockerfile.matchAll(/^RUN (.+)$/gm)].map((m) => m[1]);
    expect(runs.slice(0, 3)).toEqual([
      "npx -y pnpm@12.4.2 install --frozen-lockfile",
      "npx -y pnpm@12.4.2 build",
      "bash scripts/install-release.sh /opt/chorus ${CHANNELS} ${PROVIDERS}",
    ]);
    // No compiler in the build stage: nothing in the installation is built from source.
    expect(dockerfile).not.toMatch(/apt-get|g\+\+|python3|build-essential/);
    const channels = /^ARG CHANNELS="([^"]+)"$/m.exec(dockerfile)?.[1]?.split(" ") ?? [];
    for (const id of channels)
      expect(existsSync(join(ROOT, "packages", `channel-${id}`, "package.json")), id).toBe(true);
    // The model providers the image installs: each a peer dependency of the gateway (the script installs it at that range).
    const { peerDependencies } = JSON.parse(await readFile(join(ROOT, "apps", "gateway", "package.json"), "utf8")) as {
      peerDependencies: Record<string, string>;
    };
    const providers = /^ARG PROVIDERS="([^"]*)"$/m.exec(dockerfile)?.[1]?.split(" ") ?? [];
    expect(providers.length).toBeGreaterThan(0);
    for (const name of providers) expect(Object.keys(peerDependencies), name).toContain(name);
    const entrypoint = JSON.parse(/^ENTRYPOINT (.+)$/m.exec(dockerfile)?.[1] ?? "[]") as string[];
    expect(entrypoint[0]).toBe("/opt/chorus/node_modules/.bin/chorus");
    expect(existsSync(join(dest, "node_modules", ".bin", "chorus"))).toBe(true);
    // The image's default config is valid as shipped (with its token variable set).
    const check = await run(
      join(dest, "node_modules", ".bin", "chorus"),
      ["config", "check", "--config", join(ROOT, "deploy", "container-config.json5")],
      { env: { ...env, CHORUS_HOME: join(work, "home"), CHORUS_TOKEN: "a-container-token-0123456789" } },
    );
    expect(check.stdout).toContain(": valid");
  });

  it("the systemd unit passes systemd-analyze verify (pointed at this installation)", async () => {
    const unit = (await readFile(join(ROOT, "deploy", "chorus.service"), "utf8"))
      .replaceAll("/opt/chorus", dest)
      .replace(/^User=.*$/m, "User=root")
      .replace(/^Group=.*$/m, "Group=root");
    const file = join(work, "chorus.service");
    await writeFile(file, unit);
    const verify = await run("systemd-analyze", ["verify", file], { env }).then(
      (result) => ({ code: 0, output: `${result.stdout}${result.stderr}` }),
      (error: { code?: number; stdout?: string; stderr?: string }) => ({
        code: error.code ?? 1,
        output: `${error.stdout ?? ""}${error.stderr ?? ""}`,
      }),
    );
    // Only complaints about this unit count (the machine's own units are not ours to judge).
    const ours = verify.output.split("\n").filter((line) => line.includes("chorus.service"));
    expect(ours, verify.output).toEqual([]);
  });
});

/**
 * What an install on a new machine sees: an empty HOME (so no npm cache, `~/.npmrc` or node-gyp
 * headers from earlier installs), Node's headers at an empty directory, and the compilers and `make`
 * on PATH replaced by commands that refuse to run, saying so.
 */
async function newMachine(dir: string): Promise<NodeJS.ProcessEnv> {
  const home = join(dir, "home");
  const headers = join(dir, "no-node-headers");
  const bin = join(dir, "no-compilers");
  await mkdir(home, { recursive: true });
  await mkdir(headers, { recursive: true });
  await mkdir(bin, { recursive: true });
  for (const tool of ["cc", "c++", "gcc", "g++", "clang", "clang++", "make"])
    await writeFile(
      join(bin, tool),
      `#!/bin/sh\necho "${tool}: compiler refused (the release install must not build anything)" >&2\nexit 1\n`,
      {
        mode: 0o755,
      },
    );
  return {
    HOME: home,
    npm_config_cache: join(home, ".npm"),
    npm_config_nodedir: headers,
    npm_config_userconfig: join(home, ".npmrc"),
    PATH: `${bin}:${process.env.PATH ?? ""}`,
  };
}
