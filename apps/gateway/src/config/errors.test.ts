import { z } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { ConfigError, type ConfigIssue, formatZodIssues } from "./errors.js";
import { gatewayConfigSchema } from "./schema.js";
import { closestMatch, editDistance } from "./suggest.js";
import { describeValue, formatPath, isSecretKey } from "./values.js";

function issuesOf(raw: unknown): ConfigIssue[] {
  const result = gatewayConfigSchema.safeParse(raw);
  if (result.success) throw new Error("expected the config to be invalid");
  return formatZodIssues(result.error.issues, raw, "", gatewayConfigSchema);
}

describe("formatZodIssues", () => {
  it("names path, expectation and the offending value for a wrong type", () => {
    expect(issuesOf({ gateway: { port: "abc" } })).toEqual([
      { path: "gateway.port", message: 'expected a number, got "abc"', value: "abc" },
    ]);
  });

  it("says to drop the quotes around a number or boolean", () => {
    expect(issuesOf({ gateway: { port: "8080" } })[0]?.message).toBe(
      'expected a number, got "8080" (write 8080 without quotes)',
    );
    expect(issuesOf({ messages: { statusReactions: { enabled: "true" } } })[0]?.message).toBe(
      'expected true or false, got "true" (write true without quotes)',
    );
  });

  it("lists the allowed values of an enum", () => {
    expect(issuesOf({ session: { dmScope: "per-user" } })).toEqual([
      {
        path: "session.dmScope",
        message: 'expected one of "owner-main", "main", "per-peer", got "per-user"',
        value: "per-user",
      },
    ]);
  });

  it("suggests the closest known key for an unknown one", () => {
    expect(issuesOf({ gateway: { prot: 1 } })).toEqual([
      { path: "gateway.prot", message: 'unknown key "prot" (did you mean "port"?)', value: 1 },
    ]);
    expect(issuesOf({ gateway: { foo: 1 } })[0]?.message).toBe('unknown key "foo" (did you mean "port"?)');
    expect(issuesOf({ agents: { defaults: { maxStep: 3 } } })[0]?.message).toBe(
      'unknown key "maxStep" (did you mean "maxSteps"?)',
    );
    expect(issuesOf({ sesion: {} })[0]).toMatchObject({
      path: "sesion",
      message: 'unknown key "sesion" (did you mean "session"?)',
    });
  });

  it("suggests keys inside the matching branch of a discriminated union", () => {
    const raw = {
      agents: {
        list: [{ id: "a", model: { provider: "openai-compatible", baseURL: "http://x", model: "m", temprature: 1 } }],
      },
    };
    expect(issuesOf(raw)[0]?.message).toBe('unknown key "temprature" (did you mean "temperature"?)');
  });

  it("lists the known keys when nothing is close", () => {
    expect(issuesOf({ session: { zzzzzzzz: 1 } })[0]?.message).toBe('unknown key "zzzzzzzz"; known keys: dmScope');
  });

  it("names the discriminator values of a model", () => {
    expect(issuesOf({ agents: { list: [{ id: "a", model: { provider: "openia" } }] } })).toEqual([
      {
        path: "agents.list[0].model.provider",
        message:
          'expected one of "demo", "openai-compatible", "openai", "anthropic", "google", "ollama", "external", got "openia"',
        value: "openia",
      },
    ]);
  });

  it("names a misspelt discriminator key (provder) instead of only listing the providers", () => {
    const raw = {
      agents: {
        list: [{ id: "main", model: { provder: "openai-compatible", model: "x", baseURL: "http://127.0.0.1:9/v1" } }],
      },
    };
    expect(issuesOf(raw)).toEqual([
      {
        path: "agents.list[0].model.provder",
        message:
          'unknown key "provder" (did you mean "provider"?); provider is missing: expected one of "demo", "openai-compatible", "openai", "anthropic", "google", "ollama", "external"',
        value: "openai-compatible",
      },
    ]);
    // No key close to it: the discriminator is missing; an unrelated unknown key is not taken for it.
    expect(issuesOf({ agents: { list: [{ id: "a", model: { apikey: "sk-1", model: "m" } }] } })).toEqual([
      {
        path: "agents.list[0].model.provider",
        message:
          'missing: expected one of "demo", "openai-compatible", "openai", "anthropic", "google", "ollama", "external"',
      },
    ]);
  });

  it("says a required key is missing", () => {
    const issues = issuesOf({
      agents: { list: [{ id: "a", model: { provider: "openai-compatible", baseURL: "http://x" } }] },
    });
    expect(issues).toEqual([{ path: "agents.list[0].model.model", message: "missing: expected a string" }]);
  });

  it("combines the forms a union accepts", () => {
    expect(issuesOf({ agents: { defaults: { heartbeat: { every: "5x" } } } })[0]?.message).toBe(
      'expected a number or a duration like "30s", "5m", "1h", got "5x"',
    );
  });

  it("describes bounds, URLs, record keys and the root", () => {
    expect(issuesOf({ gateway: { port: 70000 } })[0]?.message).toBe("expected at most 65535, got 70000");
    expect(issuesOf({ gateway: { publicUrl: "nope" } })[0]?.message).toBe(
      'expected a URL like https://example.com, got "nope"',
    );
    expect(issuesOf({ channels: { Tele_gram: {} } })[0]).toEqual({
      path: "channels.Tele_gram",
      message: 'invalid key "Tele_gram": channel ids are lower case letters, digits and -',
    });
    expect(issuesOf({ channels: { telegram: 5 } })[0]?.message).toBe("expected an object, got 5");
    expect(issuesOf("hello")).toEqual([{ path: "", message: 'expected an object, got "hello"', value: "hello" }]);
    expect(issuesOf({ agents: { list: [] } })[0]?.message).toContain("at least one agent");
  });

  it("keeps a schema's own message and adds the value", () => {
    const schema = z.object({ name: z.string().regex(/^[a-z]+$/, "names are lower case letters") });
    const result = schema.safeParse({ name: "Bob" });
    expect(formatZodIssues(result.error?.issues ?? [], { name: "Bob" }, "people[0]")).toEqual([
      { path: "people[0].name", message: 'names are lower case letters (got "Bob")', value: "Bob" },
    ]);
  });

  it("masks the values of secret keys", () => {
    const [short] = issuesOf({ gateway: { auth: { token: "hunter2" } } });
    expect(short?.path).toBe("gateway.auth.token");
    expect(short?.message).toContain('(got "***")');
    expect(short?.message).not.toContain("hunter2");
    expect(short?.value).toBe("***");

    const raw = {
      agents: {
        defaults: { model: { provider: "openai-compatible", baseURL: "http://x", model: "m", apikey: "sk-live-1" } },
      },
    };
    const [typo] = issuesOf(raw);
    expect(typo?.message).toBe('unknown key "apikey" (did you mean "apiKey"?)');
    expect(typo?.value).toBe("***");

    const schema = z.object({ botToken: z.string().min(20), password: z.number() }).strict();
    const input = { botToken: "123:short", password: "pa55word" };
    const issues = formatZodIssues(schema.safeParse(input).error?.issues ?? [], input);
    const text = JSON.stringify(issues);
    expect(text).not.toContain("123:short");
    expect(text).not.toContain("pa55word");
    expect(issues.map((issue) => issue.message)).toEqual([
      'expected at least 20 characters, got "***"',
      "expected a number, got a string",
    ]);
  });

  it("a value of the wrong type: what was expected, what it got, and to quote a token or id", () => {
    const schema = z.object({
      botToken: z.string({
        error: "botToken is required (the token @BotFather gave you, or an environment variable reference)",
      }),
      account: z.string({ error: "account is required: the bot's Signal number in E.164 form (+15551234567)" }),
      chatId: z.string({ error: "chatId is required" }),
      handle: z.string({ error: "the bot's @handle" }),
    });
    const input = { botToken: 12345, account: 15551234567, chatId: -1001234, handle: true };
    expect(formatZodIssues(schema.safeParse(input).error?.issues ?? [], input, "channels.telegram")).toEqual([
      {
        path: "channels.telegram.botToken",
        message:
          "expected a string (the token @BotFather gave you, or an environment variable reference), got a number (put it in quotes)",
        value: "***",
      },
      {
        path: "channels.telegram.account",
        message:
          'expected a string (the bot\'s Signal number in E.164 form (+15551234567)), got a number (write it in quotes: "15551234567")',
        value: 15551234567,
      },
      {
        path: "channels.telegram.chatId",
        message: 'expected a string, got a number (write it in quotes: "-1001234")',
        value: -1001234,
      },
      { path: "channels.telegram.handle", message: "expected a string (the bot's @handle), got true", value: true },
    ]);
    // Missing, the schema's own words are right.
    expect(formatZodIssues(schema.safeParse({}).error?.issues ?? [], {})[0]?.message).toBe(
      "botToken is required (the token @BotFather gave you, or an environment variable reference)",
    );
  });

  it("never shows a secret's digits, nor digits that were rounded when the file was read", () => {
    const schema = z.object({ apiKey: z.string(), guildId: z.string() });
    // As read from the file: a Discord-style id without quotes loses its last digits.
    const input = JSON.parse('{ "apiKey": 98765, "guildId": 1234567890123456789 }') as Record<string, unknown>;
    const issues = formatZodIssues(schema.safeParse(input).error?.issues ?? [], input);
    expect(issues.map((issue) => issue.message)).toEqual([
      "expected a string, got a number (put it in quotes)",
      "expected a string, got a number (put it in quotes, digit for digit as you have it: it is too long to be read as a number)",
    ]);
    expect(JSON.stringify(issues)).not.toContain("98765");
    expect(issues[1]?.message).not.toMatch(/\d{10}/);
  });
});

describe("ConfigError", () => {
  it("lists every issue on its own line under the file", () => {
    const error = new ConfigError(
      [
        { path: "gateway.port", message: 'expected a number, got "abc"' },
        { path: "", message: "something about the whole file" },
      ],
      { file: "/etc/chorus.json" },
    );
    expect(error.message).toBe(
      'Invalid config /etc/chorus.json:\n  - gateway.port: expected a number, got "abc"\n  - something about the whole file',
    );
    expect(error.code).toBe("E_INVALID_INPUT");
    expect(error.retryable).toBe(false);
    expect(error.file).toBe("/etc/chorus.json");
    expect(error.hint).toContain("/etc/chorus.json");
    expect(error.toJSON().details).toEqual({ file: "/etc/chorus.json", issues: error.issues });
  });

  it("names the file after the fact", () => {
    const error = new ConfigError([{ path: "a", message: "b" }], { hint: "set B" }).inFile("/x/chorus.json");
    expect(error.message).toBe("Invalid config /x/chorus.json:\n  - a: b");
    expect(error.file).toBe("/x/chorus.json");
    expect(error.hint).toBe("set B");
    expect(new ConfigError([{ path: "a", message: "b" }]).inFile("/y.json").hint).toContain("/y.json");
  });
});

describe("helpers", () => {
  it("formats paths with indices and quoted odd keys", () => {
    expect(formatPath(["agents", "list", 0, "model"])).toBe("agents.list[0].model");
    expect(formatPath(["groups", "123@g.us", "requireMention"], "channels.whatsapp")).toBe(
      'channels.whatsapp.groups["123@g.us"].requireMention',
    );
  });

  it("recognises secret keys", () => {
    for (const key of [
      "token",
      "botToken",
      "apiKey",
      "api_key",
      "password",
      "clientSecret",
      "appSecret",
      "authorization",
    ]) {
      expect(isSecretKey(key), key).toBe(true);
    }
    for (const key of ["port", "allowFrom", "baseURL", "model", "enabled"]) expect(isSecretKey(key), key).toBe(false);
  });

  it("describes values briefly", () => {
    expect(describeValue([1, 2, 3])).toBe("a list of 3 items");
    expect(describeValue({ a: 1 })).toBe("an object");
    expect(describeValue(null)).toBe("null");
    expect(describeValue("x".repeat(100))).toHaveLength(60);
    expect(describeValue("secret", true)).toBe('"***"');
  });

  it("measures edit distance with swaps and ignores case", () => {
    expect(editDistance("prot", "port")).toBe(1);
    expect(editDistance("bottoken", "botToken")).toBe(0);
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(closestMatch("bnid", ["port", "bind", "auth"])).toBe("bind");
    expect(closestMatch("qqqq", ["port", "bind"])).toBeUndefined();
  });
});
