import { Redactor } from "@chorus/channel-kit";
import { describe, expect, it } from "vitest";
import { createLogger } from "../support/index.js";
import { parseConfig } from "./load.js";
import type { GatewayConfig } from "./schema.js";
import { gatewaySecrets, modelSecrets } from "./secrets.js";

const PASSWORD = "pg/pass+word=1";
const env = { CHORUS_TOKEN: "token-from-env-0123456789", OPENAI_API_KEY: "sk-env-openai-0123456789" };

/** A config with a secret in every place the gateway has one. */
function configWithSecrets(): GatewayConfig {
  return parseConfig(
    {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own `${ENV}` reference
      gateway: { auth: { token: "${CHORUS_TOKEN}" } },
      agents: {
        defaults: { model: { provider: "anthropic", model: "claude", apiKey: "sk-ant-defaults-0123" } },
        list: [
          {
            id: "main",
            model: {
              provider: "openai-compatible",
              baseURL: "http://127.0.0.1:1/v1",
              model: "m",
              apiKey: "sk-listed-0123",
            },
          },
          { id: "env", model: { provider: "openai", model: "gpt-x" } },
        ],
      },
      channels: {
        telegram: {
          botToken: "123456:channel-token-abcdef",
          accounts: { work: { botToken: "654321:work-token-abcdef" } },
        },
      },
      state: { backend: "postgres", url: `postgres://chorus:${encodeURIComponent(PASSWORD)}@127.0.0.1:5432/chorus` },
    },
    { env },
  );
}

describe("gatewaySecrets: every secret value of the config and the environment", () => {
  it("collects the token, every model's apiKey, the providers' variables, channel keys and the state URL's password", () => {
    const secrets = gatewaySecrets(configWithSecrets(), env);
    expect(secrets).toEqual(
      expect.arrayContaining([
        "token-from-env-0123456789",
        "sk-ant-defaults-0123",
        "sk-listed-0123",
        "sk-env-openai-0123456789",
        "123456:channel-token-abcdef",
        "654321:work-token-abcdef",
        PASSWORD,
        encodeURIComponent(PASSWORD),
      ]),
    );
    expect(secrets).not.toContain("chorus");
    expect(secrets).not.toContain("gpt-x");
  });

  it("finds a secret-named key wherever it is, agents.defaults.transcription.apiKey included", () => {
    const config = configWithSecrets();
    Object.assign(config.agents.defaults, { transcription: { provider: "openai", apiKey: "sk-whisper-0123456" } });
    expect(gatewaySecrets(config, {})).toContain("sk-whisper-0123456");
  });

  it("adds what each channel plugin names as its accounts' secrets (secretKeys)", () => {
    const channels = [
      {
        secretKeys: ["auth.pass", "appSecret"],
        configs: [{ auth: { pass: "hidden-123456" } }, { appSecret: "other-654321" }],
      },
    ];
    expect(gatewaySecrets(configWithSecrets(), {}, channels)).toEqual(
      expect.arrayContaining(["hidden-123456", "other-654321"]),
    );
  });

  it("reads the password of a URL that `new URL` refuses", () => {
    const config = configWithSecrets();
    config.state = {
      ...config.state,
      backend: "postgres",
      url: "postgres://chorus:un-parsable-pw@host:no-port/db",
    } as GatewayConfig["state"];
    expect(gatewaySecrets(config, {})).toContain("un-parsable-pw");
  });
});

describe("modelSecrets: the key a model call sends", () => {
  it("its apiKey, else the provider's own variable, else none", () => {
    expect(
      modelSecrets(
        {
          provider: "openai",
          baseURL: "http://x/v1",
          model: "m",
          apiKey: "sk-own",
          timeoutMs: 1,
          maxRetries: 0,
          stream: false,
        },
        env,
      ),
    ).toEqual(["sk-own"]);
    expect(
      modelSecrets(
        { provider: "openai", baseURL: "http://x/v1", model: "m", timeoutMs: 1, maxRetries: 0, stream: false },
        env,
      ),
    ).toEqual([env.OPENAI_API_KEY]);
    expect(
      modelSecrets(
        { provider: "ollama", baseURL: "http://x/api", model: "m", timeoutMs: 1, maxRetries: 0, stream: false },
        env,
      ),
    ).toEqual([]);
    expect(modelSecrets({ provider: "demo" }, env)).toEqual([]);
  });
});

describe("the gateway's log, given those secrets", () => {
  it("a PostgreSQL connection error line carries no spelling of the state URL's password", () => {
    const lines: string[] = [];
    const logger = createLogger({
      format: "json",
      destination: { write: (line: string) => lines.push(line) },
      redactor: new Redactor(gatewaySecrets(configWithSecrets(), env)),
    });
    const url = `postgres://chorus:${encodeURIComponent(PASSWORD)}@127.0.0.1:5432/chorus`;
    const error = new Error(`password authentication failed: "${PASSWORD}" (${url})`);
    logger.warn({ err: error.message }, "state database connection problem");
    logger.error({ err: error, where: Buffer.from(PASSWORD).toString("base64") }, "message handling failed");
    logger.child({ db: url }).warn(`retrying ${encodeURIComponent(PASSWORD)}`);
    const all = lines.join("");
    expect(lines).toHaveLength(3);
    for (const form of [
      PASSWORD,
      encodeURIComponent(PASSWORD),
      Buffer.from(PASSWORD).toString("base64").replace(/=+$/, ""),
    ])
      expect(all).not.toContain(form);
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      msg: "state database connection problem",
      err: expect.stringContaining("[redacted]"),
    });
  });
});
