import { silentLogger } from "@chorus/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SlackConfig, slackConfigSchema } from "./config.js";
import { slackChannel } from "./index.js";
import { createFakeSlack } from "./testing/index.js";

const probe = (config: Record<string, unknown>) =>
  slackChannel.probe?.({
    config: slackConfigSchema.parse(config) as SlackConfig,
    accountId: "default",
    stateDir: "/nonexistent",
    store: { get: async () => undefined, list: async () => [] },
    logger: silentLogger,
    signal: AbortSignal.timeout(5000),
  });

describe("probe (chorus doctor): auth.test, nothing started", () => {
  const fake = createFakeSlack({ mode: "http" });
  beforeAll(() => fake.start());
  afterAll(() => fake.close());

  it("a working bot token: ok; HTTP mode lists its Events API path for the public-URL check", async () => {
    const result = await probe(fake.config());
    expect(result).toMatchObject({ ok: true, webhooks: ["/default/events"] });
    expect(result?.detail).toMatch(/^the bot token works: .+ \(Events API over HTTP\)$/);
  });

  it("a wrong token: Slack's error and where to find the right token, never the token", async () => {
    const result = await probe({ ...fake.config(), botToken: "xoxb-wrong-0000" });
    expect(result).toMatchObject({ ok: false, detail: expect.stringContaining("invalid_auth") });
    expect(result?.fix).toContain("OAuth & Permissions");
    expect(JSON.stringify(result)).not.toContain("xoxb-wrong");
  });
});
