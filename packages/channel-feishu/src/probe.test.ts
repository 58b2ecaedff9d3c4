import { silentLogger } from "@chorus/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FeishuConfig, feishuConfigSchema } from "./config.js";
import { feishuChannel } from "./index.js";
import { createFakeFeishu } from "./testing/index.js";

const probe = (config: Record<string, unknown>) =>
  feishuChannel.probe?.({
    config: feishuConfigSchema.parse(config) as FeishuConfig,
    accountId: "default",
    stateDir: "/nonexistent",
    store: { get: async () => undefined, list: async () => [] },
    logger: silentLogger,
    signal: AbortSignal.timeout(5000),
  });

describe("probe (chorus doctor): a tenant access token, no long connection", () => {
  const fake = createFakeFeishu();
  beforeAll(() => fake.start());
  afterAll(() => fake.close());

  it("working credentials: ok", async () => {
    expect(await probe(fake.config())).toEqual({ ok: true, detail: "the app credentials work (long connection)" });
  });

  it("a wrong secret: Feishu's reason and where the right one is, never the secret", async () => {
    const result = await probe({ ...fake.config(), appSecret: "wrong-secret-123" });
    expect(result).toMatchObject({ ok: false, detail: expect.stringContaining("app secret invalid") });
    expect(result?.fix).toContain("Credentials & Basic Info");
    expect(JSON.stringify(result)).not.toContain("wrong-secret-123");
  });
});
