import { createServer } from "node:net";
import { silentLogger } from "@chorus/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SignalConfig, signalConfigSchema } from "./config.js";
import { signalChannel } from "./index.js";
import { FakeSignal } from "./testing/index.js";

const probe = (config: Record<string, unknown>) =>
  signalChannel.probe?.({
    config: signalConfigSchema.parse(config) as SignalConfig,
    accountId: "default",
    stateDir: "/nonexistent",
    store: { get: async () => undefined, list: async () => [] },
    logger: silentLogger,
    signal: AbortSignal.timeout(5000),
  });

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("probe (chorus doctor): the daemon's version for the account, no event stream", () => {
  const fake = new FakeSignal({ mode: "multi", linked: false });
  beforeAll(() => fake.start());
  afterAll(() => fake.close());

  it("a number not linked to the daemon: the login command is the fix", async () => {
    const result = await probe(fake.config());
    expect(result).toMatchObject({ ok: false, fix: expect.stringContaining("chorus channels login signal") });
  });

  it("a running daemon with the account: ok", async () => {
    const single = new FakeSignal();
    await single.start();
    try {
      expect(await probe(single.config())).toMatchObject({ ok: true, detail: expect.stringContaining("signal-cli") });
    } finally {
      await single.close();
    }
  });

  it("no daemon: how to start one; with autoStart the gateway starts it", async () => {
    const httpUrl = `http://127.0.0.1:${await closedPort()}`;
    const down = await probe({ ...fake.config(), httpUrl });
    expect(down).toMatchObject({ ok: false, fix: expect.stringContaining("daemon --http") });
    expect(await probe({ ...fake.config(), httpUrl, autoStart: true })).toMatchObject({ ok: true });
  });
});
