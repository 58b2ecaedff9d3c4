import { validatePluginConfig } from "@chorus/testkit";
import { describe, expect, it } from "vitest";
import { telegramChannel } from "./index.js";

const TOKEN = "123456:AAH-abc_def";

describe("telegramConfigSchema", () => {
  it("fills defaults and strips a trailing slash from apiRoot (grammY refuses one)", async () => {
    const config = await validatePluginConfig(telegramChannel, { botToken: TOKEN, apiRoot: "http://127.0.0.1:8081/" });
    expect(config).toMatchObject({
      apiRoot: "http://127.0.0.1:8081",
      pollTimeoutMs: 30_000,
      bigReactions: false,
      // The kit's retry and reconnect keys, with the defaults Telegram had before.
      retries: 3,
      maxRetryAfterMs: 30_000,
      timeoutMs: 60_000,
      reconnectMinMs: 1_000,
      reconnectMaxMs: 60_000,
    });
    expect((await validatePluginConfig(telegramChannel, { botToken: TOKEN })).apiRoot).toBe("https://api.telegram.org");
  });

  it("names what is wrong: a missing or malformed token, a webhook without its secret, unknown keys", async () => {
    await expect(validatePluginConfig(telegramChannel, {})).rejects.toThrow(
      /channels\.telegram\.botToken: botToken is required/,
    );
    await expect(validatePluginConfig(telegramChannel, { botToken: "nope" })).rejects.toThrow(/123456789:AA/);
    await expect(
      validatePluginConfig(telegramChannel, {
        botToken: TOKEN,
        webhookUrl: "https://x.example/hooks/telegram/default",
      }),
    ).rejects.toThrow(/channels\.telegram\.secretToken: secretToken is required with webhookUrl/);
    await expect(
      validatePluginConfig(telegramChannel, {
        botToken: TOKEN,
        webhookUrl: "https://x.example/h",
        secretToken: "has space",
      }),
    ).rejects.toThrow(/A-Z, a-z, 0-9/);
    await expect(validatePluginConfig(telegramChannel, { botToken: TOKEN, token: "x" })).rejects.toThrow(/token/);
  });
});

describe("renamed keys", () => {
  it("timeoutSeconds and pollTimeoutSeconds are refused with the key that replaced them", async () => {
    await expect(validatePluginConfig(telegramChannel, { botToken: TOKEN, timeoutSeconds: 60 })).rejects.toThrow(
      /channels\.telegram\.timeoutSeconds: timeoutSeconds was renamed to timeoutMs \(milliseconds\): write timeoutMs: 60000/,
    );
    await expect(validatePluginConfig(telegramChannel, { botToken: TOKEN, pollTimeoutSeconds: 30 })).rejects.toThrow(
      /channels\.telegram\.pollTimeoutSeconds: pollTimeoutSeconds was renamed to pollTimeoutMs/,
    );
  });

  it("pollTimeoutMs is whole seconds, as Telegram's getUpdates timeout is", async () => {
    await expect(validatePluginConfig(telegramChannel, { botToken: TOKEN, pollTimeoutMs: 1_500 })).rejects.toThrow(
      /pollTimeoutMs must be whole seconds/,
    );
    await expect(validatePluginConfig(telegramChannel, { botToken: TOKEN, pollTimeoutMs: 60_000 })).rejects.toThrow(
      /pollTimeoutMs/,
    );
    expect(await validatePluginConfig(telegramChannel, { botToken: TOKEN, pollTimeoutMs: 0 })).toMatchObject({
      pollTimeoutMs: 0,
    });
  });
});
