import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { silentLogger } from "@chorus/core";
import { afterAll, describe, expect, it } from "vitest";
import { type WhatsAppConfig, whatsappConfigSchema } from "./config.js";
import { whatsappChannel } from "./index.js";

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

async function probeWith(creds: unknown, accountId = "default") {
  const stateDir = await mkdtemp(join(tmpdir(), "wa-probe-"));
  dirs.push(stateDir);
  if (creds !== undefined) {
    await mkdir(join(stateDir, "auth"));
    await writeFile(join(stateDir, "auth", "creds.json"), JSON.stringify(creds));
  }
  return whatsappChannel.probe?.({
    config: whatsappConfigSchema.parse({}) as WhatsAppConfig,
    accountId,
    stateDir,
    store: { get: async () => undefined, list: async () => [] },
    logger: silentLogger,
    signal: AbortSignal.timeout(5000),
  });
}

describe("probe (chorus doctor): linked or not, without a connection", () => {
  it("no credentials: the login command for this account is the fix", async () => {
    expect(await probeWith(undefined, "work")).toEqual({
      ok: false,
      detail: "this account is not linked yet",
      fix: "link it: chorus channels login whatsapp --account work",
    });
  });

  it("credentials of a half-finished link, then of a linked device", async () => {
    expect(await probeWith({ registered: false })).toMatchObject({
      ok: false,
      fix: "link it: chorus channels login whatsapp",
    });
    expect(await probeWith({ me: { id: "4915100000001:3@s.whatsapp.net" }, registered: true })).toMatchObject({
      ok: true,
    });
  });
});
