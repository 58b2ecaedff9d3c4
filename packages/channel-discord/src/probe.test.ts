import { silentLogger } from "@chorus/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DiscordConfig, discordConfigSchema } from "./config.js";
import { discordChannel } from "./index.js";
import { createFakeDiscord } from "./testing/index.js";

const probe = (config: Record<string, unknown>) =>
  discordChannel.probe?.({
    config: discordConfigSchema.parse(config) as DiscordConfig,
    accountId: "default",
    stateDir: "/nonexistent",
    store: { get: async () => undefined, list: async () => [] },
    logger: silentLogger,
    signal: AbortSignal.timeout(5000),
  });

describe("probe (chorus doctor): /users/@me, no gateway connection", () => {
  const fake = createFakeDiscord();
  beforeAll(() => fake.start());
  afterAll(() => fake.close());

  it("a working token: ok, with the bot's name", async () => {
    expect(await probe(fake.config())).toEqual({ ok: true, detail: "the bot token works: chorus" });
  });

  it("a refused token: where to reset it, never the token", async () => {
    const result = await probe({ ...fake.config(), token: "wrong.discord.token-x" });
    expect(result).toMatchObject({ ok: false, detail: expect.stringContaining("HTTP 401") });
    expect(result?.fix).toContain("Reset Token");
    expect(JSON.stringify(result)).not.toContain("wrong.discord");
  });
});
