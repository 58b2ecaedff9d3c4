import { CHORUS_API_VERSION, type ChannelPlugin, ChorusError, NO_REACTIONS, z } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { z as ownZod } from "zod";
import { type ChannelAccountConfig, channelAccounts, groupConfigFor, validatePluginConfig } from "./channels.js";
import { ConfigError } from "./errors.js";
import type { ChannelSettings } from "./schema.js";

function thrown(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error("expected a ConfigError");
}

async function rejected(promise: Promise<unknown>): Promise<ConfigError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return error as ConfigError;
}

function pluginWith(configSchema: ChannelPlugin<unknown>["configSchema"]): ChannelPlugin<unknown> {
  return {
    id: "telegram",
    apiVersion: CHORUS_API_VERSION,
    label: "Telegram",
    capabilities: {
      chatTypes: ["direct", "group"],
      reactions: NO_REACTIONS,
      typing: false,
      inboundReactions: false,
      replies: false,
      threads: false,
      maxTextLength: 4096,
    },
    configSchema,
    create: () => {
      throw new ChorusError("E_UNSUPPORTED", "not started in config tests");
    },
  };
}

const telegramSchema = z
  .object({
    botToken: z.string().min(10, "botToken looks too short: copy it from @BotFather"),
    apiRoot: z.url().default("https://api.telegram.org"),
    pollTimeoutSeconds: z.number().int().min(0).default(30),
  })
  .strict();

describe("channelAccounts", () => {
  it("makes one default account and splits gateway keys from plugin keys", () => {
    const accounts = channelAccounts("telegram", {
      botToken: "123:abc",
      apiRoot: "http://127.0.0.1:9999",
      reactionLevel: "ack",
      allowFrom: ["+1555"],
      enabled: true,
    });
    expect(accounts).toEqual([
      {
        channelId: "telegram",
        accountId: "default",
        settings: { reactionLevel: "ack", allowFrom: ["+1555"], enabled: true },
        pluginConfig: { botToken: "123:abc", apiRoot: "http://127.0.0.1:9999" },
        path: "channels.telegram",
      },
    ]);
  });

  it("makes one account per name; account keys override the top-level ones", () => {
    const accounts = channelAccounts("telegram", {
      apiRoot: "http://127.0.0.1:9999",
      botToken: "shared-token",
      reactionLevel: "minimal",
      dmPolicy: "allowlist",
      accounts: {
        work: { botToken: "work-token", reactionLevel: "off" },
        home: { apiRoot: "http://127.0.0.1:8888", allowFrom: ["+1"] },
      },
    });
    expect(accounts.map((account) => account.accountId)).toEqual(["work", "home"]);
    const [work, home] = accounts as [ChannelAccountConfig, ChannelAccountConfig];
    expect(work).toMatchObject({
      path: "channels.telegram.accounts.work",
      settings: { reactionLevel: "off", dmPolicy: "allowlist" },
      pluginConfig: { apiRoot: "http://127.0.0.1:9999", botToken: "work-token" },
      inheritedKeys: ["apiRoot"],
    });
    expect(home).toMatchObject({
      path: "channels.telegram.accounts.home",
      settings: { reactionLevel: "minimal", dmPolicy: "allowlist", allowFrom: ["+1"] },
      pluginConfig: { apiRoot: "http://127.0.0.1:8888", botToken: "shared-token" },
      inheritedKeys: ["botToken"],
    });
    expect(work.pluginConfig).not.toHaveProperty("accounts");
    expect(work.pluginConfig).not.toHaveProperty("reactionLevel");
  });

  it("names top-level and account gateway keys by their own path", () => {
    const error = thrown(() =>
      channelAccounts("telegram", {
        reactionLevel: "loud",
        accounts: { work: { dmPolicy: "everyone", allowFrom: "+1555" } },
      }),
    );
    expect(error.issues.map((issue) => `${issue.path}: ${issue.message}`)).toEqual([
      'channels.telegram.reactionLevel: expected one of "off", "ack", "minimal", "extensive", got "loud"',
      'channels.telegram.accounts.work.dmPolicy: expected one of "pairing", "allowlist", "open", "disabled", got "everyone"',
      'channels.telegram.accounts.work.allowFrom: expected a list, got "+1555"',
    ]);
  });

  it("requires accounts to be an object of objects with valid names", () => {
    expect(thrown(() => channelAccounts("slack", { accounts: ["work"] })).issues).toEqual([
      {
        path: "channels.slack.accounts",
        message: "expected an object of named accounts like { work: { … }, home: { … } }, got a list of 1 item",
        value: ["work"],
      },
    ]);
    expect(thrown(() => channelAccounts("slack", { accounts: {} })).issues[0]?.message).toContain(
      "expected at least one account",
    );
    const error = thrown(() =>
      channelAccounts("slack", { accounts: { "my work": {}, _x: {}, home: "yes", ok: { accounts: {} } } }),
    );
    expect(error.issues.map((issue) => issue.path)).toEqual([
      'channels.slack.accounts["my work"]',
      "channels.slack.accounts._x",
      "channels.slack.accounts.home",
      "channels.slack.accounts.ok.accounts",
    ]);
    expect(error.issues[0]?.message).toContain('got "my work"');
    expect(error.issues[2]?.message).toBe('expected an object with this account\'s keys, got "yes"');
  });

  it("accepts account names with digits, - and _", () => {
    const accounts = channelAccounts("whatsapp", { accounts: { "2nd-phone": {}, Work_1: {} } });
    expect(accounts.map((account) => account.accountId)).toEqual(["2nd-phone", "Work_1"]);
  });
});

describe("validatePluginConfig", () => {
  const plugin = pluginWith(telegramSchema);

  it("returns the plugin's parsed config with its defaults", async () => {
    const [account] = channelAccounts("telegram", { botToken: "1234567890:abc", reactionLevel: "ack" });
    await expect(validatePluginConfig(plugin, account as ChannelAccountConfig)).resolves.toEqual({
      botToken: "1234567890:abc",
      apiRoot: "https://api.telegram.org",
      pollTimeoutSeconds: 30,
    });
  });

  it("names issues by the account's path and masks secrets", async () => {
    const accounts = channelAccounts("telegram", {
      apiRoot: "http://127.0.0.1:1",
      accounts: { work: { botToken: "tiny7", pollTimeoutSeconds: "30", bottoken: "x" } },
    });
    const error = await rejected(validatePluginConfig(plugin, accounts[0] as ChannelAccountConfig));
    expect(error.code).toBe("E_INVALID_INPUT");
    expect(error.message.split("\n").slice(1)).toEqual([
      '  - channels.telegram.accounts.work.botToken: botToken looks too short: copy it from @BotFather (got "***")',
      '  - channels.telegram.accounts.work.pollTimeoutSeconds: expected a number, got "30" (write 30 without quotes)',
      '  - channels.telegram.accounts.work.bottoken: unknown key "bottoken" (did you mean "botToken"?)',
    ]);
    expect(error.message).not.toContain("tiny7");
    expect(error.hint).toContain("Telegram");
  });

  it("reads a schema built with the plugin's own copy of zod as it reads one built with core's", async () => {
    // A third-party plugin importing zod itself loads a copy apart from the one bundled in core.
    expect(ownZod.string).not.toBe(z.string);
    const ownSchema = ownZod
      .object({
        botToken: ownZod.string().min(10, "botToken looks too short: copy it from @BotFather"),
        apiRoot: ownZod.url().default("https://api.telegram.org"),
        pollTimeoutSeconds: ownZod.number().int().min(0).default(30),
      })
      .strict();
    const config = {
      apiRoot: "http://127.0.0.1:1",
      accounts: { work: { botToken: "tiny7", pollTimeoutSeconds: "30" } },
    };
    const [ours, theirs] = await Promise.all(
      [plugin, pluginWith(ownSchema)].map((each) =>
        rejected(validatePluginConfig(each, channelAccounts("telegram", config)[0] as ChannelAccountConfig)),
      ),
    );
    expect(theirs?.issues).toEqual(ours?.issues);
    expect(theirs?.issues.map((issue) => issue.message)).toEqual([
      'botToken looks too short: copy it from @BotFather (got "***")',
      'expected a number, got "30" (write 30 without quotes)',
    ]);
  });

  it("names the shared top-level key when an account inherits the bad value", async () => {
    const accounts = channelAccounts("telegram", {
      apiRoot: "not a url",
      accounts: { work: { botToken: "1234567890:abc" } },
    });
    const error = await rejected(validatePluginConfig(plugin, accounts[0] as ChannelAccountConfig));
    expect(error.issues).toEqual([
      {
        path: "channels.telegram.apiRoot",
        message: 'expected a URL like https://example.com, got "not a url" (inherited by account "work")',
        value: "not a url",
      },
    ]);
  });

  it("says a required key is missing for the default account", async () => {
    const [account] = channelAccounts("telegram", {});
    const error = await rejected(validatePluginConfig(plugin, account as ChannelAccountConfig));
    expect(error.issues).toEqual([{ path: "channels.telegram.botToken", message: "missing: expected a string" }]);
  });

  it("reads any Standard Schema's issues", async () => {
    const custom = pluginWith({
      "~standard": {
        version: 1,
        vendor: "hand-made",
        validate: (value) => {
          const input = value as Record<string, unknown>;
          return typeof input.serverUrl === "string"
            ? { value: input }
            : { issues: [{ message: "serverUrl must be the BlueBubbles server's URL", path: [{ key: "serverUrl" }] }] };
        },
      },
    });
    const accounts = channelAccounts("imessage", { accounts: { mac: { serverUrl: 42, password: "pw-123" } } });
    const error = await rejected(validatePluginConfig(custom, accounts[0] as ChannelAccountConfig));
    expect(error.issues).toEqual([
      {
        path: "channels.imessage.accounts.mac.serverUrl",
        message: "serverUrl must be the BlueBubbles server's URL (got 42)",
        value: 42,
      },
    ]);
  });

  it("turns a throwing schema into a ConfigError naming the channel", async () => {
    const broken = pluginWith({
      "~standard": {
        version: 1,
        vendor: "broken",
        validate: () => {
          throw new Error("boom");
        },
      },
    });
    const [account] = channelAccounts("telegram", {});
    const error = await rejected(validatePluginConfig(broken, account as ChannelAccountConfig));
    expect(error.issues[0]).toEqual({
      path: "channels.telegram",
      message: "the telegram plugin's config schema failed: boom",
    });
  });
});

describe("groupConfigFor", () => {
  it("prefers the group's own entry, then '*', else nothing", () => {
    const settings: ChannelSettings = { groups: { "g-1": { requireMention: false }, "*": { requireMention: true } } };
    expect(groupConfigFor(settings, "g-1")).toEqual({ key: "g-1", config: { requireMention: false } });
    expect(groupConfigFor(settings, "g-2")).toEqual({ key: "*", config: { requireMention: true } });
    expect(groupConfigFor({ groups: { "g-1": {} } }, "g-2")).toBeUndefined();
    expect(groupConfigFor({}, "g-1")).toBeUndefined();
  });

  it("never takes an inherited object property for a group's entry", () => {
    for (const id of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
      expect(groupConfigFor({ groups: { "g-1": {} } }, id)).toBeUndefined();
    }
  });
});
