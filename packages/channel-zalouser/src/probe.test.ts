import { silentLogger } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { type ZalouserConfig, zalouserConfigSchema } from "./config.js";
import { zalouserChannel } from "./index.js";
import { SESSION_KEY } from "./session.js";

const probeWith = (stored: unknown, accountId = "default") =>
  zalouserChannel.probe?.({
    config: zalouserConfigSchema.parse({}) as ZalouserConfig,
    accountId,
    stateDir: "/nonexistent",
    store: {
      get: async <V>(key: string) => (key === SESSION_KEY ? (stored as V) : undefined),
      list: async () => [],
    },
    logger: silentLogger,
    signal: AbortSignal.timeout(5000),
  });

describe("probe (chorus doctor): a stored session or not, without logging in", () => {
  it("nothing stored: the login command for this account", async () => {
    expect(await probeWith(undefined, "home")).toEqual({
      ok: false,
      detail: "this account is not linked yet",
      fix: "link it: chorus channels login zalouser --account home",
    });
  });

  it("a damaged session, then a good one", async () => {
    expect(await probeWith({ imei: 1 })).toMatchObject({
      ok: false,
      fix: "link it again: chorus channels login zalouser",
    });
    const session = {
      imei: "imei-1",
      userAgent: "Mozilla/5.0",
      language: "vi",
      uid: "100",
      cookies: [{ key: "zpw_sek", value: "c00kie" }],
      linkedAt: "2026-01-01T00:00:00.000Z",
    };
    const result = await probeWith(session);
    expect(result).toMatchObject({ ok: true, detail: expect.stringContaining("2026-01-01") });
    expect(JSON.stringify(result)).not.toContain("c00kie");
  });
});
