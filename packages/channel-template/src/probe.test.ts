import { silentLogger } from "@chorus/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AcmeConfig, acmeConfigSchema } from "./config.js";
import { acmeChannel } from "./index.js";
import { createFakeAcme } from "./testing/index.js";

const probe = (config: Record<string, unknown>) =>
  acmeChannel.probe?.({
    config: acmeConfigSchema.parse(config) as AcmeConfig,
    accountId: "default",
    stateDir: "/nonexistent",
    store: { get: async () => undefined, list: async () => [] },
    logger: silentLogger,
    signal: AbortSignal.timeout(5000),
  });

describe("probe (chorus doctor): GET /v1/me, nothing started", () => {
  const fake = createFakeAcme();
  beforeAll(() => fake.start());
  afterAll(() => fake.close());

  it("a working token: ok, and the webhook path for the public-URL check", async () => {
    expect(await probe(fake.config())).toMatchObject({ ok: true, webhooks: ["/webhook"] });
  });

  it("a refused token: the fix line, never the token", async () => {
    const result = await probe({ ...fake.config(), token: "acme-wrong-token-1" });
    expect(result).toMatchObject({ ok: false, fix: expect.stringContaining("channels.acme.token") });
    expect(JSON.stringify(result)).not.toContain("acme-wrong-token-1");
  });
});
