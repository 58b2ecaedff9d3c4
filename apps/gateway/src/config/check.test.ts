// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests are about literal ${NAME} references in config strings
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkConfig, isLoopback, resolveLoadEntry } from "./check.js";
import { type LoadedConfig, parseConfig } from "./load.js";
import type { GatewayConfigInput } from "./schema.js";

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-check-"));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function loaded(input: GatewayConfigInput, exists = true): LoadedConfig {
  return { config: parseConfig(input, { env: {} }), file: join(dir, "chorus.json"), exists };
}

const token = "0123456789abcdef0123";

describe("isLoopback", () => {
  it("knows the loopback addresses", () => {
    for (const bind of ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost", "LOCALHOST", "::ffff:127.0.0.1"]) {
      expect(isLoopback(bind), bind).toBe(true);
    }
    for (const bind of ["0.0.0.0", "::", "192.168.1.10", "10.0.0.1", "example.com", "128.0.0.1", "127.0.0.256"]) {
      expect(isLoopback(bind), bind).toBe(false);
    }
  });
});

describe("resolveLoadEntry", () => {
  it("resolves relative paths against the config file's directory and leaves package names", () => {
    expect(resolveLoadEntry("./plugins/matrix", "/etc/chorus/chorus.json")).toBe("/etc/chorus/plugins/matrix");
    expect(resolveLoadEntry("../matrix", "/etc/chorus/chorus.json")).toBe("/etc/matrix");
    expect(resolveLoadEntry("/opt/matrix/", "/etc/chorus/chorus.json")).toBe("/opt/matrix");
    expect(resolveLoadEntry("file:///opt/matrix", "/etc/chorus/chorus.json")).toBe("/opt/matrix");
    expect(resolveLoadEntry("chorus-channel-matrix", "/etc/chorus/chorus.json")).toBe("chorus-channel-matrix");
    expect(resolveLoadEntry("@acme/chorus-channel-x", "/etc/chorus/chorus.json")).toBe("@acme/chorus-channel-x");
  });
});

describe("checkConfig", () => {
  it("finds nothing wrong with a plain loopback config", () => {
    expect(checkConfig(loaded({ channels: { telegram: { botToken: "x" } } }), {})).toEqual([]);
  });

  it("refuses a non-loopback bind without a token", () => {
    const findings = checkConfig(loaded({ gateway: { bind: "0.0.0.0" } }), {});
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ level: "error", path: "gateway.bind" });
    expect(findings[0]?.message).toContain("refused at start");
    expect(findings[0]?.fix).toContain("gateway.auth.token");
    expect(checkConfig(loaded({ gateway: { bind: "0.0.0.0", auth: { token } } }), {})).toEqual([]);
  });

  it("warns about an openai-compatible model without apiKey", () => {
    const model = { provider: "openai-compatible", baseURL: "https://api.example.com/v1", model: "m" } as const;
    const findings = checkConfig(
      loaded({
        agents: {
          defaults: { model },
          list: [
            { id: "a", model: { ...model, apiKey: "sk" } },
            { id: "b", model },
          ],
        },
      }),
      {},
    );
    expect(findings.map((finding) => [finding.level, finding.path])).toEqual([
      ["warning", "agents.defaults.model.apiKey"],
      ["warning", "agents.list[1].model.apiKey"],
    ]);
    expect(findings[0]?.fix).toContain("${OPENAI_API_KEY}");
  });

  it("warns about disabled channels and accounts", () => {
    const findings = checkConfig(
      loaded({ channels: { slack: { enabled: false }, telegram: { accounts: { a: {}, b: { enabled: false } } } } }),
      {},
    );
    expect(findings.map((finding) => [finding.level, finding.path])).toEqual([
      ["warning", "channels.slack.enabled"],
      ["warning", "channels.telegram.accounts.b.enabled"],
    ]);
    expect(findings[0]?.message).toContain("channel slack is disabled");
  });

  it("says nothing about reactionLevel off with an ack reaction set", () => {
    const input = { messages: { ackReaction: "👍" }, channels: { signal: { reactionLevel: "off" } } } as const;
    expect(checkConfig(loaded(input), {})).toEqual([]);
  });

  it("warns that allowFrom is ignored with dmPolicy open, once per place it is set", () => {
    const findings = checkConfig(
      loaded({
        channels: {
          whatsapp: {
            dmPolicy: "open",
            allowFrom: ["+1555"],
            accounts: { a: {}, b: {}, c: { dmPolicy: "allowlist" } },
          },
        },
      }),
      {},
    );
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ level: "warning", path: "channels.whatsapp.allowFrom" });
    expect(findings[0]?.message).toContain("allowFrom is ignored");
  });

  it("reports invalid channel keys and agent problems as errors", () => {
    const findings = checkConfig(
      loaded({
        agents: { list: [{ id: "a" }, { id: "a" }] },
        channels: { telegram: { reactionLevel: "loud", agent: "nobody" } },
      }),
      {},
    );
    expect(findings.map((finding) => [finding.level, finding.path])).toEqual([
      ["error", "agents.list[1].id"],
      ["error", "channels.telegram.agent"],
      ["error", "channels.telegram.reactionLevel"],
    ]);
    expect(findings[2]?.fix).toContain(join(dir, "chorus.json"));
  });

  it("checks plugins.load paths relative to the config file", async () => {
    await mkdir(join(dir, "plugins", "matrix"), { recursive: true });
    await writeFile(join(dir, "plugins", "matrix", "package.json"), "{}");
    await mkdir(join(dir, "plugins", "empty"));
    const findings = checkConfig(
      loaded({ plugins: { load: ["./plugins/matrix", "./plugins/empty", "./plugins/missing", "chorus-channel-x"] } }),
      {},
    );
    expect(findings.map((finding) => [finding.level, finding.path])).toEqual([
      ["error", "plugins.load[2]"],
      ["warning", "plugins.load[1]"],
    ]);
    expect(findings[0]?.message).toBe(
      `"./plugins/missing" resolves to ${join(dir, "plugins", "missing")}, which does not exist`,
    );
    expect(findings[0]?.fix).toContain(dir);
  });

  it("warns when reaction notifications are allowlisted but nobody is on the list", () => {
    const findings = checkConfig(loaded({ channels: { discord: { reactionNotifications: "allowlist" } } }), {});
    expect(findings).toEqual([
      expect.objectContaining({ level: "warning", path: "channels.discord.reactionAllowlist" }),
    ]);
  });
});
