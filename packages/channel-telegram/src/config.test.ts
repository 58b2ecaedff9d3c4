import { validatePluginConfig } from "@chorus/testkit";
import { describe, expect, it } from "vitest";
import { telegramChannel } from "./index.js";

const TOKEN = "123456:AAH-abc_def";

describe("telegramConfigSchema", () => {
  it("fills defaults and strips a trailing slash from apiRoot (grammY refuses one)", async () => {
    const config = await validatePluginConfig(telegramChannel, { botToken: TOKEN, apiRoot: "http://127.0.0.1:8081/" });
    expect(config).toMatchObject({
      apiRoot: "http://127.0.0.1:8081",
      pollTimeoutSeconds: 30,
      retries: 3,
      bigReactions: false,
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
