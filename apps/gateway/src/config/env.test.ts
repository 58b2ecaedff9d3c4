// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests are about literal ${NAME} references in config strings
import { describe, expect, it } from "vitest";
import { substituteEnv } from "./env.js";
import { ConfigError } from "./errors.js";

const env = { TELEGRAM_BOT_TOKEN: "123:abc", HOST: "example.org", PORT: "8443", EMPTY: "" };

function thrown(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error("expected a ConfigError");
}

describe("substituteEnv", () => {
  it("replaces a string that is only a reference", () => {
    expect(substituteEnv({ channels: { telegram: { botToken: "${TELEGRAM_BOT_TOKEN}" } } }, env)).toEqual({
      channels: { telegram: { botToken: "123:abc" } },
    });
  });

  it("replaces several references inside one string", () => {
    expect(substituteEnv({ url: "https://${HOST}:${PORT}/v1?x=${HOST}" }, env)).toEqual({
      url: "https://example.org:8443/v1?x=example.org",
    });
  });

  it("walks nested arrays and objects and leaves other values alone", () => {
    const raw = { list: [["${HOST}", 1], { deep: ["a-${PORT}"] }], flag: true, nothing: null, n: 5 };
    expect(substituteEnv(raw, env)).toEqual({
      list: [["example.org", 1], { deep: ["a-8443"] }],
      flag: true,
      nothing: null,
      n: 5,
    });
  });

  it("does not touch keys and does not mutate its input", () => {
    const raw = { "${HOST}": "${HOST}" };
    expect(substituteEnv(raw, env)).toEqual({ "${HOST}": "example.org" });
    expect(raw).toEqual({ "${HOST}": "${HOST}" });
  });

  it("keeps $${NAME} as a literal ${NAME}, also next to a real reference", () => {
    expect(substituteEnv({ a: "$${HOST}", b: "$${NOT_SET} and ${HOST}", c: "cost: $5 $$" }, env)).toEqual({
      a: "${HOST}",
      b: "${NOT_SET} and example.org",
      c: "cost: $5 $$",
    });
  });

  it("names the key path and the variable when a variable is not set", () => {
    const error = thrown(() => substituteEnv({ channels: { telegram: { botToken: "${TELEGRAM_BOT_TOKEN}" } } }, {}));
    expect(error.code).toBe("E_INVALID_INPUT");
    expect(error.message).toContain("channels.telegram.botToken: environment variable TELEGRAM_BOT_TOKEN is not set");
  });

  it("reports every missing variable, with array indices in the path", () => {
    const error = thrown(() =>
      substituteEnv({ agents: { list: [{ model: { apiKey: "${A}" } }, { name: "${B}" }] } }, {}),
    );
    expect(error.issues).toEqual([
      { path: "agents.list[0].model.apiKey", message: "environment variable A is not set", variable: "A" },
      { path: "agents.list[1].name", message: "environment variable B is not set", variable: "B" },
    ]);
  });

  it("treats an empty variable as a mistake", () => {
    const error = thrown(() => substituteEnv({ token: "${EMPTY}" }, env));
    expect(error.issues[0]).toEqual({
      path: "token",
      message: "environment variable EMPTY is set but empty",
      variable: "EMPTY",
    });
  });

  it("rejects invalid names and names the path", () => {
    const error = thrown(() => substituteEnv({ messages: { groupChat: { mentionPatterns: ["a${1X}"] } } }, env));
    expect(error.issues[0]?.path).toBe("messages.groupChat.mentionPatterns[0]");
    expect(error.issues[0]?.message).toContain('"${1X}" is not a valid environment variable name');
    expect(thrown(() => substituteEnv({ x: "${}" }, env)).issues[0]?.path).toBe("x");
  });

  it("rejects an unterminated reference", () => {
    const error = thrown(() => substituteEnv({ gateway: { bind: "${HOST" } }, env));
    expect(error.issues[0]?.path).toBe("gateway.bind");
    expect(error.issues[0]?.message).toContain("unterminated");
    expect(error.issues[0]?.variable).toBeUndefined();
  });

  it("prefixes paths with the given path", () => {
    const error = thrown(() => substituteEnv({ botToken: "${NOPE}" }, {}, ["channels", "telegram"]));
    expect(error.issues[0]?.path).toBe("channels.telegram.botToken");
  });

  it("substitutes a root string", () => {
    expect(substituteEnv("${HOST}", env)).toBe("example.org");
  });
});
