// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests are about literal ${NAME} references in config strings
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ModelProviderMissingError } from "../agent/index.js";
import { chorusPaths } from "../support/index.js";
import { installGatewayLayout } from "../testing/index.js";
import { type ConfigSource, validateInstallation, validationError, variableOf } from "./validate.js";
import { checkWebhook, reachOf } from "./webhooks.js";

const homes: string[] = [];
afterEach(async () => {
  await Promise.all(homes.splice(0).map((home) => rm(home, { recursive: true, force: true })));
});

async function validate(
  text: string | undefined,
  source: ConfigSource = "home",
  env: NodeJS.ProcessEnv = {},
  providers = true,
) {
  const home = await mkdtemp(join(tmpdir(), "chorus-validate-"));
  homes.push(home);
  if (text !== undefined) await writeFile(join(home, "chorus.json"), text);
  const paths = chorusPaths(home, source === "home" ? {} : { CHORUS_CONFIG: join(home, "chorus.json") });
  // A gateway installation of its own: no channel next to it, the model providers as `providers` says.
  const gatewayDir = join(home, "install", "node_modules", "@chorus", "gateway");
  await installGatewayLayout(gatewayDir, { providers });
  return validateInstallation({ paths, env, source, gatewayDir });
}

describe("validateInstallation: one pass over everything", () => {
  it("no file in the home: nothing wrong, the defaults apply; named by --config or CHORUS_CONFIG: an error", async () => {
    const home = await validate(undefined);
    expect(home.findings).toEqual([]);
    expect(home.exists).toBe(false);
    expect(home.config.agents.list).toBeUndefined();
    const flag = await validate(undefined, "flag");
    expect(flag.findings[0]).toMatchObject({ level: "error", message: expect.stringMatching(/^--config names /) });
    expect(validationError(flag)?.message).toMatch(/^--config names .*, which does not exist$/);
    expect((await validate(undefined, "env")).findings[0]?.message).toMatch(/^CHORUS_CONFIG names /);
  });

  it("a missing variable, a schema error and a cross-field rule, all at once", async () => {
    const result = await validate(
      '{ gateway: { bind: "0.0.0.0", port: "80" }, agents: { list: [{ id: "a", model: { provider: "openai", model: "gpt-4o", apiKey: "${NO_SUCH_KEY}" } }] } }',
    );
    const lines = result.findings.map((f) => `${f.level} ${f.path}: ${f.message}`);
    expect(lines).toEqual(
      expect.arrayContaining([
        "error agents.list[0].model.apiKey: environment variable NO_SUCH_KEY is not set",
        'error gateway.port: expected a number, got "80" (write 80 without quotes)',
        expect.stringMatching(/^error gateway\.bind: gateway\.bind is "0\.0\.0\.0", reachable from other machines/),
      ]),
    );
    expect(validationError(result)?.message.split("\n").length).toBeGreaterThanOrEqual(4);
  });

  it("an unset variable: the fix is to set it in the gateway's environment, not to edit the file", async () => {
    const result = await validate(
      '{ agents: { list: [{ id: "main", model: { provider: "openai", model: "gpt-4o", apiKey: "${OPENAI_API_KEY}" } }] } }',
      "home",
      { OPENAI_API_KEY: "" },
    );
    const [unset] = result.findings;
    expect(unset).toMatchObject({
      level: "error",
      path: "agents.list[0].model.apiKey",
      message: "environment variable OPENAI_API_KEY is set but empty",
      fix: "set OPENAI_API_KEY in the gateway's environment (export OPENAI_API_KEY=… or the service's environment file)",
    });
    expect(unset && variableOf(unset)).toBe("OPENAI_API_KEY");
    // A malformed reference is the file's to fix.
    const malformed = await validate('{ gateway: { auth: { token: "${1BAD}" } } }');
    expect(malformed.findings[0]?.fix).toMatch(/^edit gateway\.auth\.token in /);
    expect(malformed.findings[0] && variableOf(malformed.findings[0])).toBeUndefined();
  });

  it("names the sections that fell back to their defaults", async () => {
    const result = await validate('{ agents: { list: [{ id: "main", model: { provder: "demo" } }] }, gateway: {} }');
    expect(result.defaulted).toEqual(["agents"]);
    expect((await validate("{ gateway: { port: 1 } }")).defaulted).toEqual([]);
    expect((await validate("{ gateway: ")).defaulted).toContain("agents");
  });

  it("a provider whose package is not installed: an error naming agent, package and command; start gets that error", async () => {
    const config =
      '{ agents: { defaults: { model: { provider: "ollama", model: "llama3" } }, list: [{ id: "main" }, { id: "helper", model: { provider: "openai", model: "gpt-4o", apiKey: "sk-x" } }] } }';
    const result = await validate(config, "home", {}, false);
    const install = join(result.file, "..", "install");
    expect(result.findings.map((f) => `${f.path}: ${f.message} | ${f.fix}`)).toEqual([
      expect.stringMatching(
        /^agents\.defaults\.model\.provider: agent "main" uses provider "ollama", whose package ollama-ai-provider-v2 is not installed next to the gateway\. Install it with: cd \S+ && npm i ollama-ai-provider-v2@\^\d+\.\d+\.\d+ \| cd \S+ && npm i ollama-ai-provider-v2@\^\d+\.\d+\.\d+$/,
      ),
      expect.stringMatching(
        /^agents\.list\[1\]\.model\.provider: agent "helper" uses provider "openai", whose package @ai-sdk\/openai /,
      ),
    ]);
    expect(result.findings[0]?.fix).toContain(`cd ${install} && `);
    expect(validationError(result)?.message).toMatch(
      /agent "main" uses provider "ollama"[\s\S]*agent "helper" uses provider "openai"/,
    );
    // One missing package alone: `chorus start` fails with its own typed error.
    const one = await validate(
      '{ agents: { list: [{ id: "helper", model: { provider: "google", model: "gemini-x", apiKey: "k" } }] } }',
      "home",
      {},
      false,
    );
    expect(validationError(one)).toBeInstanceOf(ModelProviderMissingError);
    expect(validationError(one)).toMatchObject({ details: { agent: "helper", package: "@ai-sdk/google" } });
    // Installed next to the gateway: valid.
    expect((await validate(config)).findings).toEqual([]);
  });

  it("a malformed ${…} reference is one finding, and the rest is still checked", async () => {
    const result = await validate('{ gateway: { port: "80", auth: { token: "${1BAD}" } } }');
    expect(result.findings.map((f) => f.path)).toEqual(expect.arrayContaining(["gateway.auth.token", "gateway.port"]));
  });

  it("a hosted provider without a key, neither in the config nor in its variable", async () => {
    const config = '{ agents: { list: [{ id: "a", model: { provider: "anthropic", model: "claude-x" } }] } }';
    expect((await validate(config)).findings).toEqual([
      expect.objectContaining({ level: "error", path: "agents.list[0].model.apiKey" }),
    ]);
    expect((await validate(config, "home", { ANTHROPIC_API_KEY: "sk-ant-x" })).findings).toEqual([]);
  });
});

describe("webhook reachability", () => {
  it("classifies hosts without DNS", () => {
    expect(["http://127.0.0.1:7800", "http://localhost", "http://[::1]:1"].map(reachOf)).toEqual([
      "loopback",
      "loopback",
      "loopback",
    ]);
    expect(["http://192.168.1.20", "http://10.0.0.1", "http://mac.local", "http://nas"].map(reachOf)).toEqual([
      "private",
      "private",
      "private",
      "private",
    ]);
    expect(reachOf("https://chorus.example.com")).toBe("public");
  });

  it("a platform on the internet needs a public https URL; a LAN server a non-loopback one", () => {
    expect(checkWebhook("http://127.0.0.1:7800/hooks/x", undefined, "fix").level).toBe("error");
    expect(checkWebhook("http://192.168.1.5:7800/hooks/x", undefined, "fix").level).toBe("error");
    expect(checkWebhook("http://chorus.example.com/hooks/x", undefined, "fix").level).toBe("warning");
    expect(checkWebhook("https://chorus.example.com/hooks/x", undefined, "fix").level).toBe("ok");
    expect(checkWebhook("http://192.168.1.5:7800/hooks/x", "http://192.168.1.20:1234", "fix").level).toBe("ok");
    expect(checkWebhook("http://127.0.0.1:7800/hooks/x", "http://192.168.1.20:1234", "fix").level).toBe("error");
    expect(checkWebhook("http://127.0.0.1:7800/hooks/x", "http://127.0.0.1:8080", "fix").level).toBe("ok");
  });
});
