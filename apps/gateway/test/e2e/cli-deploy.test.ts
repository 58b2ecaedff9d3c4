import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createFakeTelegram, type FakeTelegram } from "@chorus/channel-telegram/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { GATEWAY_DIR, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { freePort, makeHome, runChorus, STACK_LINE } from "../support/loading-cli.js";

const homes: string[] = [];
afterEach(async () => {
  await Promise.all(homes.splice(0).map(removeHome));
});
async function home(config?: Record<string, unknown>): Promise<string> {
  const dir = await makeHome(config);
  homes.push(dir);
  return dir;
}

const PACKAGES = fileURLToPath(new URL("../../../../packages", import.meta.url));
/** The first-party channels these tests configure, loaded from the workspace. */
const LOAD = { load: ["channel-telegram", "channel-nextcloud"].map((name) => join(PACKAGES, name)) };

/** Three problems `start` refuses, of three kinds: a plugin key's typo, an unknown channel, a plugin's own rule. */
const THREE_PROBLEMS = {
  plugins: LOAD,
  channels: {
    telegram: { botTokn: "123456:abc" },
    matrix: {},
    nextcloud: { baseUrl: "https://cloud.example.com", secret: "short" },
  },
};

describe("one validation for config check and start: every problem, in one pass, with its key path", () => {
  it("config check names all three at once and exits 1", async () => {
    const dir = await home(THREE_PROBLEMS);
    const run = await runChorus(["config", "check"], { home: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('✗ channels.telegram.botTokn: unknown key "botTokn" (did you mean "botToken"?)');
    expect(run.stdout).toContain(
      '✗ channels.matrix: No installed plugin provides channel "matrix" (installed channels: ',
    );
    expect(run.stdout).toContain("✗ channels.nextcloud.secret: secret is too short");
    expect(run.stdout).not.toContain("valid\n");
    expect(`${run.stdout}${run.stderr}`).not.toMatch(STACK_LINE);
  });

  it("start refuses the same config, listing the same problems", async () => {
    const dir = await home({ ...THREE_PROBLEMS, gateway: { port: 0 } });
    const run = await runChorus(["start"], { home: dir });
    expect(run.started).toBe(false);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("  - channels.telegram.botTokn: unknown key");
    expect(run.stderr).toContain("  - channels.matrix: No installed plugin provides channel");
    expect(run.stderr).toContain("  - channels.nextcloud.secret: secret is too short");
  });

  it("--config naming a missing file is an error for start, config check and doctor, blamed on --config", async () => {
    const dir = await home();
    const missing = join(dir, "missing.json5");
    const start = await runChorus(["start", "--config", missing], { home: dir });
    expect(start).toMatchObject({ started: false, code: 1 });
    expect(start.stderr).toContain(`error E_INVALID_INPUT: --config names ${missing}, which does not exist`);
    const check = await runChorus(["config", "check", "--config", missing], { home: dir, env: { CHORUS_CONFIG: "" } });
    expect(check.code).toBe(1);
    expect(check.stdout).toContain(`✗ --config names ${missing}, which does not exist`);
    expect(check.stdout).not.toContain("CHORUS_CONFIG");
    const doctor = await runChorus(["doctor", "--config", missing], { home: dir });
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain(`✗ --config names ${missing}`);
  });
});

describe("the CLI's small promises", () => {
  it("-v prints the version", async () => {
    const { version } = JSON.parse(await readFile(join(GATEWAY_DIR, "package.json"), "utf8")) as { version: string };
    const run = await runChorus(["-v"], { home: await home() });
    expect(run).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  it("the token is printed when it is generated, not on the next start; `chorus token` shows it on request", async () => {
    const dir = await home();
    const first = await startGatewayProcess({ home: dir, config: {} });
    await first.stop();
    expect(first.output()).toContain(`API token: ${first.token}`);
    const second = await startGatewayProcess({ home: dir, config: {} });
    await second.stop();
    expect(second.token).toBe(first.token);
    expect(second.output()).not.toContain(first.token);
    expect(second.output()).toContain("`chorus token --webchat`");
    const port = await freePort();
    await writeFile(join(dir, "chorus.json"), JSON.stringify({ gateway: { port } }));
    expect((await runChorus(["token"], { home: dir })).stdout).toBe(`${first.token}\n`);
    expect((await runChorus(["token", "--webchat"], { home: dir })).stdout).toBe(
      `http://127.0.0.1:${port}/?token=${encodeURIComponent(first.token)}\n`,
    );
  });
});

describe("an honest chorus doctor: what cannot work fails, with a concrete fix line", () => {
  let telegram: FakeTelegram;
  beforeAll(async () => {
    telegram = createFakeTelegram();
    await telegram.start();
  });
  afterAll(() => telegram.close());

  it("a dead model server, an unreachable Nextcloud, a refused Telegram token and a loopback webhook: exit 1", async () => {
    const deadPort = await freePort();
    const dir = await home({
      plugins: LOAD,
      agents: {
        list: [
          { id: "main", model: { provider: "ollama", baseURL: `http://127.0.0.1:${deadPort}/api`, model: "llama3.1" } },
        ],
      },
      channels: {
        telegram: {
          ...telegram.config(),
          botToken: "123456789:REFUSED-token-value",
          webhookUrl: "http://127.0.0.1:7800/hooks/telegram/default",
          secretToken: "hook-secret",
        },
        nextcloud: { baseUrl: `http://127.0.0.1:${deadPort}`, secret: "n".repeat(48) },
      },
    });
    const run = await runChorus(["doctor"], { home: dir });
    expect(run.code).toBe(1);
    const out = run.stdout;
    expect(out).toContain(
      `✗ agent main: the model server (ollama at http://127.0.0.1:${deadPort}) is unreachable: ECONNREFUSED`,
    );
    expect(out).toContain(
      `    fix: start Ollama (ollama serve) on http://127.0.0.1:${deadPort}, or fix agents.list[0].model.baseURL`,
    );
    expect(out).toContain("✗ channel telegram (default): the Telegram Bot API at");
    expect(out).toContain("refused the bot token (HTTP 401 from getMe)");
    expect(out).toContain("    fix: copy the bot's current token from @BotFather");
    expect(out).toContain(
      "✗ channel telegram (default): webhook http://127.0.0.1:7800/hooks/telegram/default is a loopback address: only this machine can reach it, but the platform (on the internet) must reach it",
    );
    expect(out).toContain(
      `✗ channel nextcloud (default): Nextcloud at http://127.0.0.1:${deadPort} is unreachable: ECONNREFUSED`,
    );
    expect(out).toContain("    fix: check channels.nextcloud.baseUrl and that the server is up");
    expect(out).not.toContain("REFUSED-token-value");
    expect(out).not.toContain("n".repeat(48));
  });

  it("a working model and a working token: those lines pass", async () => {
    const dir = await home({ plugins: LOAD, channels: { telegram: telegram.config() } });
    const run = await runChorus(["doctor"], { home: dir });
    expect(run.stdout).toContain("✓ agent main: the offline demo model");
    expect(run.stdout).toContain("✓ channel telegram (default): the bot token works: @chorus_test_bot");
    expect(run.code).toBe(0);
  });
});
