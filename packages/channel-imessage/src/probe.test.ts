import { silentLogger } from "@chorus/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type IMessageConfig, imessageConfigSchema } from "./config.js";
import { imessageChannel } from "./index.js";
import { createFakeBlueBubbles } from "./testing/index.js";

const probe = (config: Record<string, unknown>) =>
  imessageChannel.probe?.({
    config: imessageConfigSchema.parse(config) as IMessageConfig,
    accountId: "default",
    stateDir: "/nonexistent",
    store: { get: async () => undefined, list: async () => [] },
    logger: silentLogger,
    signal: AbortSignal.timeout(5000),
  });

describe("probe (chorus doctor): /ping with the password, no webhook registered", () => {
  const fake = createFakeBlueBubbles();
  beforeAll(() => fake.start());
  afterAll(() => fake.close());

  it("the right password: ok, with the webhook the server must reach", async () => {
    const result = await probe(fake.config());
    expect(result).toMatchObject({ ok: true, webhooks: ["/default"], platformUrl: fake.url });
  });

  it("a wrong password: where to find the right one, never the password", async () => {
    const result = await probe({ ...fake.config(), password: "not-the-password-9" });
    expect(result).toMatchObject({ ok: false, detail: expect.stringContaining("HTTP 401") });
    expect(result?.fix).toContain("Server password");
    expect(JSON.stringify(result)).not.toContain("not-the-password-9");
  });
});
