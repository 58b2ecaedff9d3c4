// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests are about literal ${NAME} references in config strings
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chorusPaths } from "../support/index.js";
import { ConfigError } from "./errors.js";
import { loadConfig, parseConfig } from "./load.js";

let home: string;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "chorus-config-"));
});

afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

async function writeConfig(text: string, name = "chorus.json"): Promise<string> {
  const file = join(home, name);
  await writeFile(file, text);
  return file;
}

async function loadError(env: NodeJS.ProcessEnv = {}): Promise<ConfigError> {
  const error = await loadConfig({ paths: chorusPaths(home, env), env }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return error as ConfigError;
}

describe("loadConfig", () => {
  it("gives the defaults when there is no file", async () => {
    const loaded = await loadConfig({ paths: chorusPaths(home, {}), env: {} });
    expect(loaded.exists).toBe(false);
    expect(loaded.file).toBe(join(home, "chorus.json"));
    expect(loaded.config.gateway).toMatchObject({ port: 7800, bind: "127.0.0.1", auth: {} });
    expect(loaded.config.channels).toEqual({});
    expect(loaded.config.agents.list).toBeUndefined();
    expect(loaded.config.session.dmScope).toBe("owner-main");
  });

  it("reads JSON5 with comments, trailing commas, unquoted keys and env references", async () => {
    await writeConfig(`// my assistant
{
  gateway: { port: 7900, }, /* block comment */
  channels: {
    telegram: { botToken: '\${TG_TOKEN}', allowFrom: ['+15550001',], },
  },
}
`);
    const loaded = await loadConfig({ paths: chorusPaths(home, {}), env: { TG_TOKEN: "42:secret" } });
    expect(loaded.exists).toBe(true);
    expect(loaded.config.gateway.port).toBe(7900);
    expect(loaded.config.channels.telegram).toEqual({ botToken: "42:secret", allowFrom: ["+15550001"] });
  });

  it("reads the file CHORUS_CONFIG names", async () => {
    await mkdir(join(home, "etc"));
    const file = await writeConfig('{ "gateway": { "port": 8123 } }', "etc/custom.json5");
    const env = { CHORUS_CONFIG: file };
    const loaded = await loadConfig({ paths: chorusPaths(home, env), env });
    expect(loaded).toMatchObject({ file, exists: true, config: { gateway: { port: 8123 } } });
  });

  it("treats an empty file as the defaults", async () => {
    await writeConfig("\uFEFF  \n");
    const loaded = await loadConfig({ paths: chorusPaths(home, {}), env: {} });
    expect(loaded.exists).toBe(true);
    expect(loaded.config.gateway.port).toBe(7800);
  });

  it("resolves relative plugins.load paths against the config file's directory", async () => {
    await mkdir(join(home, "conf"));
    const file = await writeConfig(
      '{ plugins: { load: ["./plugins/matrix", "../shared/slack", "chorus-channel-matrix", "/opt/x"] } }',
      "conf/chorus.json",
    );
    const env = { CHORUS_CONFIG: file };
    const loaded = await loadConfig({ paths: chorusPaths(home, env), env });
    expect(loaded.config.plugins.load).toEqual([
      join(home, "conf", "plugins", "matrix"),
      join(home, "shared", "slack"),
      "chorus-channel-matrix",
      "/opt/x",
    ]);
  });

  it("names the file, line and column of a syntax error", async () => {
    const file = await writeConfig('{\n  gateway: {\n    port: 7800\n    bind: "0.0.0.0"\n  }\n}\n');
    const error = await loadError();
    expect(error.file).toBe(file);
    expect(error.message).toContain(`Invalid config ${file}:`);
    expect(error.message).toContain(
      [
        'syntax error at line 4, column 5: expected "," or "}" after the value of gateway.port (line 3) — is a comma missing at the end of line 3?',
        "    3 |     port: 7800",
        '    4 |     bind: "0.0.0.0"',
        "      |     ^",
      ].join("\n"),
    );
  });

  it("names the file and the OS error when the file cannot be read", async () => {
    const file = join(home, "chorus.json");
    await mkdir(file);
    const error = await loadError();
    expect(error.file).toBe(file);
    expect(error.message).toContain(`Cannot read config ${file}`);
    expect(error.message).toContain("EISDIR");
  });

  it("names path, value and expectation of a wrong type", async () => {
    const file = await writeConfig('{ gateway: { port: "abc" } }');
    const error = await loadError();
    expect(error.message).toBe(`Invalid config ${file}:\n  - gateway.port: expected a number, got "abc"`);
    expect(error.issues).toEqual([{ path: "gateway.port", message: 'expected a number, got "abc"', value: "abc" }]);
  });

  it("lists every problem and suggests the closest key", async () => {
    await writeConfig('{ gateway: { prot: 1 }, session: { dmScope: "x" } }');
    const error = await loadError();
    expect(error.message.split("\n").slice(1)).toEqual([
      '  - gateway.prot: unknown key "prot" (did you mean "port"?)',
      '  - session.dmScope: expected one of "owner-main", "main", "per-peer", got "x"',
    ]);
  });

  it("names the file when an environment variable is missing", async () => {
    const file = await writeConfig('{ channels: { telegram: { botToken: "${TELEGRAM_BOT_TOKEN}" } } }');
    const error = await loadError();
    expect(error.file).toBe(file);
    expect(error.message).toBe(
      `Invalid config ${file}:\n  - channels.telegram.botToken: environment variable TELEGRAM_BOT_TOKEN is not set`,
    );
  });

  it("never shows a secret, also one that came from the environment", async () => {
    await writeConfig('{ gateway: { bind: "0.0.0.0", auth: { token: "${TOKEN}" } } }');
    const error = await loadError({ TOKEN: "tiny-secret" });
    expect(error.message).toContain("gateway.auth.token: must be at least 16 characters");
    expect(error.message).toContain('"***"');
    expect(JSON.stringify(error.toJSON())).not.toContain("tiny-secret");
  });
});

describe("parseConfig", () => {
  it("validates and fills defaults without a file", () => {
    const config = parseConfig({ agents: { list: [{ id: "main" }] } }, { env: {} });
    expect(config.agents.list?.[0]).toEqual({ id: "main", name: "Chorus" });
    expect(config.agents.defaults).toMatchObject({ maxSteps: 8, historyMessages: 40 });
  });

  it("throws a ConfigError without a file name when none is given", () => {
    expect(() => parseConfig({ gateway: { port: -1 } }, { env: {} })).toThrowError(
      /^Invalid config:\n {2}- gateway\.port: expected at least 0, got -1$/,
    );
  });
});

describe("state", () => {
  it("defaults to SQLite in the home, takes a postgres URL, and never shows the URL's password", () => {
    expect(parseConfig({}, { env: {} }).state).toEqual({ backend: "sqlite" });
    expect(
      parseConfig({ state: { backend: "postgres", url: "postgres://u:pw@db:5432/chorus" } }, { env: {} }).state,
    ).toEqual({ backend: "postgres", url: "postgres://u:pw@db:5432/chorus", poolSize: 10, leaseMs: 10_000 });
    let message = "";
    try {
      parseConfig({ state: { backend: "postgres", url: "mysql://u:hunter2secret@db/chorus" } }, { env: {} });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("state.url");
    expect(message).not.toContain("hunter2secret");
    expect(() => parseConfig({ state: { backend: "mongo" } }, { env: {} })).toThrow(/state\.backend/);
  });
});
