import { validatePluginConfig } from "@chorus/testkit";
import { describe, expect, it } from "vitest";
import { DEFAULT_USER_AGENT } from "./config.js";
import { zalouserChannel } from "./index.js";

describe("channels.zalouser", () => {
  it("needs nothing: the session comes from linking; defaults filled in", async () => {
    expect(await validatePluginConfig(zalouserChannel, {})).toEqual({
      userAgent: DEFAULT_USER_AGENT,
      language: "vi",
      groupInfoTtlMs: 300_000,
      connectTimeoutMs: 20_000,
      qrTimeoutMs: 100_000,
      mediaHosts: ["zdn.vn", "zadn.vn", "dlfl.vn"],
      uploadTimeoutMs: 120_000,
      retries: 2,
      maxRetryAfterMs: 10_000,
      timeoutMs: 15_000,
      reconnectMinMs: 500,
      reconnectMaxMs: 30_000,
    });
    expect(zalouserChannel.secretKeys).toEqual([]);
  });

  it("names each wrong key", async () => {
    await expect(validatePluginConfig(zalouserChannel, { apiBase: "ftp://x", language: "vietnamese" })).rejects.toThrow(
      /channels\.zalouser\.apiBase: apiBase must be an http\(s\) URL.*channels\.zalouser\.language: language must be a two-letter code/,
    );
    await expect(validatePluginConfig(zalouserChannel, { mediaHosts: ["https://zdn.vn/"] })).rejects.toThrow(
      /channels\.zalouser\.mediaHosts\.0: each of mediaHosts must be a domain such as zdn\.vn/,
    );
    await expect(validatePluginConfig(zalouserChannel, { cookie: "x" })).rejects.toThrow(/Unrecognized key: "cookie"/);
    await expect(
      validatePluginConfig(zalouserChannel, { reconnectMinMs: 5_000, reconnectMaxMs: 1_000 }),
    ).rejects.toThrow(/reconnectMaxMs must be ≥ reconnectMinMs/);
  });
});
