import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { removeHome } from "../support/gateway-process.js";
import { makeHome, runChorus, STACK_LINE } from "../support/loading-cli.js";
import { installIntoHome } from "../support/loading-plugins.js";

const GATEWAY_DIR = fileURLToPath(new URL("../..", import.meta.url));
const homes: string[] = [];
afterEach(async () => {
  await Promise.all(homes.splice(0).map(removeHome));
});

/** A temp home whose chorus.json holds `text` as written (JSON5 allowed). */
async function homeWithText(text: string): Promise<{ home: string; file: string }> {
  const home = await makeHome();
  homes.push(home);
  const file = join(home, "chorus.json");
  await writeFile(file, text);
  return { home, file };
}

const VALID = `{
  // JSON5: comments and trailing commas are fine
  gateway: { port: 7999, auth: { token: "\${CLI_TEST_TOKEN}" }, },
  agents: { list: [{ id: "main", model: { provider: "demo" } }] },
}`;

describe("chorus config check", () => {
  it("a valid config: says so and exits 0", async () => {
    const { home, file } = await homeWithText(VALID);
    const run = await runChorus(["config", "check"], { home, env: { CLI_TEST_TOKEN: "a-token-of-24-characters" } });
    expect(run).toMatchObject({ code: 0, stderr: "", stdout: `${file}: valid\n` });
  });

  it("warnings alone keep exit 0 and say how to fix them", async () => {
    const { home, file } = await homeWithText(
      JSON.stringify({
        agents: {
          list: [
            { id: "main", model: { provider: "openai-compatible", baseURL: "http://127.0.0.1:9/v1", model: "m" } },
          ],
        },
      }),
    );
    const run = await runChorus(["config", "check"], { home });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('! agents.list[0].model.apiKey: no apiKey for model "m" at http://127.0.0.1:9/v1');
    expect(run.stdout).toContain(`    fix: set apiKey, e.g. "\${OPENAI_API_KEY}"`);
    expect(run.stdout).toContain(`${file}: valid\n`);
  });

  it("no config file: one line saying what starts and how to configure, not a warning", async () => {
    const home = await makeHome();
    homes.push(home);
    const run = await runChorus(["config", "check"], { home });
    expect(run).toMatchObject({
      code: 0,
      stderr: "",
      stdout: `no config file at ${join(home, "chorus.json")}: the gateway starts the webchat with the offline demo agent (create the file, JSON5, to configure channels and agents)\n`,
    });
  });

  it("an invalid config: exit 1, every bad key named by its path with what was expected", async () => {
    const { home, file } = await homeWithText('{ gateway: { port: "80" }, agnets: {} }');
    const run = await runChorus(["config", "check"], { home });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('✗ gateway.port: expected a number, got "80" (write 80 without quotes)');
    expect(run.stdout).toContain('✗ agnets: unknown key "agnets" (did you mean "agents"?)');
    expect(run.stdout).toContain(`${file}: has errors`);
    expect(`${run.stdout}${run.stderr}`).not.toMatch(STACK_LINE);
  });

  it("what would be refused at start is an error too: a public bind without a token", async () => {
    const { home } = await homeWithText('{ gateway: { bind: "0.0.0.0" } }');
    const run = await runChorus(["config", "check"], { home });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('✗ gateway.bind: gateway.bind is "0.0.0.0", reachable from other machines');
    expect(run.stdout).toContain("has errors");
  });

  it("--config checks another file; a syntax error names line and column", async () => {
    const home = await makeHome();
    homes.push(home);
    const other = join(home, "other.json5");
    await writeFile(other, "{\n  gateway: { port: 80 \n");
    const run = await runChorus(["config", "check", "--config", other], { home });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      [
        '✗ syntax error at line 3, column 1: the file ends inside the object opened at line 2: expected "}" to close it (2 brackets are still open)',
        "    2 |   gateway: { port: 80 ",
        "      |            ^",
        `    fix: edit ${other}`,
      ].join("\n"),
    );
    expect(run.stdout).toContain(`${other}: has errors`);
  });
});

describe("chorus doctor", () => {
  it("a broken config: names the key path, says how to fix it, exits 1", async () => {
    const { home, file } = await homeWithText('{ gateway: { maxBodyBytes: "1mb" } }');
    const run = await runChorus(["doctor"], { home });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^✓ Node\.js \d+\.\d+\.\d+\n/);
    expect(run.stdout).toContain('✗ gateway.maxBodyBytes: expected a number, got "1mb"');
    expect(run.stdout).toContain(`    fix: edit gateway.maxBodyBytes in ${file}`);
    expect(`${run.stdout}${run.stderr}`).not.toMatch(STACK_LINE);
  });

  it("a configured channel that is not installed, and one whose config its plugin rejects", async () => {
    const { home } = await homeWithText("{ channels: { matrix: {}, acme: { greeting: 42 } } }");
    await installIntoHome(home, "chorus-channel-acme");
    const run = await runChorus(["doctor"], { home });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      '✗ channels.matrix: No installed plugin provides channel "matrix" (installed channels: acme, webchat).\n    fix: Install the plugin that provides it: chorus plugins add <its npm package, tarball or directory> (docs/install.md).',
    );
    expect(run.stdout).toContain("✗ channels.acme.greeting: expected a string (got 42)");
  });

  it("a healthy installation: every line checked, exit 0", async () => {
    const { home, file } = await homeWithText('{ channels: { acme: { greeting: "hi" } } }');
    await installIntoHome(home, "chorus-channel-acme");
    const run = await runChorus(["doctor"], { home });
    expect(run.stdout).not.toContain("✗");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`✓ config ${file}`);
    expect(run.stdout).toContain("channel acme (default): its plugin has no probe");
    expect(run.stdout).toContain(`✓ home ${home}`);
  });

  it("each agent's provider package: installed, with its version (then its endpoint is probed)", async () => {
    const { home } = await homeWithText(
      '{ agents: { list: [{ id: "local", model: { provider: "ollama", model: "llama3", baseURL: "http://127.0.0.1:9/api" } }] } }',
    );
    const run = await runChorus(["doctor"], { home });
    const { version } = JSON.parse(
      await readFile(join(GATEWAY_DIR, "node_modules", "ollama-ai-provider-v2", "package.json"), "utf8"),
    ) as { version: string };
    expect(run.stdout).toContain(`✓ agent local: provider ollama: ollama-ai-provider-v2 ${version} installed\n`);
    expect(run.stdout).toContain("✗ agent local: the model server (ollama at http://127.0.0.1:9) is unreachable");
  });
});
