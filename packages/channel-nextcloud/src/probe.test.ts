import { createServer } from "node:net";
import { silentLogger } from "@chorus/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type NextcloudConfig, nextcloudConfigSchema } from "./config.js";
import { nextcloudChannel } from "./index.js";
import { createFakeTalk } from "./testing/index.js";

const probe = (config: Record<string, unknown>) =>
  nextcloudChannel.probe?.({
    config: nextcloudConfigSchema.parse(config) as NextcloudConfig,
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

describe("probe (chorus doctor): status.php of baseUrl, nothing started", () => {
  const fake = createFakeTalk();
  const secret = "s".repeat(48);
  beforeAll(() => fake.start());
  afterAll(() => fake.close());

  it("a reachable server: ok; the webhook Talk posts to is reported with Talk's own address", async () => {
    const bot = fake.installBot({ name: "Chorus", secret, url: "http://127.0.0.1:1/hooks/nextcloud/default" });
    const result = await probe(fake.config(bot));
    expect(result).toEqual({
      ok: true,
      detail: `Nextcloud at ${fake.url} answers (Nextcloud 31.0.4)`,
      webhooks: ["/default"],
      platformUrl: fake.url,
    });
  });

  it("an unreachable baseUrl is a failure with a fix (no longer 'running ✓')", async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    const result = await probe({ baseUrl, secret });
    expect(result).toMatchObject({
      ok: false,
      detail: `Nextcloud at ${baseUrl} is unreachable: ECONNREFUSED`,
      fix: "check channels.nextcloud.baseUrl and that the server is up",
    });
  });

  it("with files: the files user's login is checked too (read-only), and a wrong app password is a failure", async () => {
    const bot = fake.installBot({ name: "Files", secret, url: "http://127.0.0.1:2/hooks/nextcloud/default" });
    fake.addAccount({ id: "chorus-bot", appPassword: "right-app-password" });
    const ok = await probe(fake.config(bot, { files: { user: "chorus-bot", appPassword: "right-app-password" } }));
    expect(ok).toMatchObject({
      ok: true,
      detail: `Nextcloud at ${fake.url} answers (Nextcloud 31.0.4); files as "chorus-bot"`,
    });
    const wrong = await probe(fake.config(bot, { files: { user: "chorus-bot", appPassword: "wrong-app-password" } }));
    expect(wrong).toMatchObject({
      ok: false,
      detail: `Nextcloud at ${fake.url} answers (Nextcloud 31.0.4), but the files login of "chorus-bot" failed (HTTP 401)`,
      fix: "check channels.nextcloud.files.user and files.appPassword (an app password of that user)",
    });
    expect(JSON.stringify(wrong)).not.toContain("wrong-app-password");
  });
});
