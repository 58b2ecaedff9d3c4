import { silentLogger } from "@chorus/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TelegramConfig, telegramConfigSchema } from "./config.js";
import { telegramChannel } from "./index.js";
import { createFakeTelegram, unreachableApiRoot } from "./testing/index.js";

const probe = (config: Record<string, unknown>) =>
  telegramChannel.probe?.({
    config: telegramConfigSchema.parse(config) as TelegramConfig,
    accountId: "default",
    stateDir: "/nonexistent",
    store: { get: async () => undefined, list: async () => [] },
    logger: silentLogger,
    signal: AbortSignal.timeout(5000),
  });

describe("probe (chorus doctor): getMe, nothing started", () => {
  const fake = createFakeTelegram();
  beforeAll(() => fake.start());
  afterAll(() => fake.close());

  it("a working token: ok, with the bot's username, and no getUpdates", async () => {
    expect(await probe(fake.config())).toEqual({ ok: true, detail: "the bot token works: @chorus_test_bot" });
    expect(fake.allowedUpdates).toBeUndefined();
  });

  it("a refused token: the fix says where to get the right one, and the token is nowhere", async () => {
    const result = await probe({ ...fake.config(), botToken: "123456789:WRONG-token" });
    expect(result).toMatchObject({ ok: false, detail: expect.stringContaining("HTTP 401 from getMe") });
    expect(result?.fix).toContain("@BotFather");
    expect(JSON.stringify(result)).not.toContain("WRONG-token");
  });

  it("an unreachable API: says so; a webhookUrl is reported for the public-URL check", async () => {
    const apiRoot = await unreachableApiRoot();
    const result = await probe({
      ...fake.config(),
      apiRoot,
      webhookUrl: "http://127.0.0.1:7800/hooks/telegram/default",
      secretToken: "s3cret",
    });
    expect(result).toMatchObject({ ok: false, detail: expect.stringContaining("ECONNREFUSED") });
    expect(result?.webhooks).toEqual(["http://127.0.0.1:7800/hooks/telegram/default"]);
  });
});
