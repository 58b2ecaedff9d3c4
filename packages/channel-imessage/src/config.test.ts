import { describe, expect, it } from "vitest";
import { imessageConfigSchema } from "./config.js";

describe("channels.imessage config", () => {
  it("fills defaults", () => {
    expect(imessageConfigSchema.parse({ serverUrl: "http://mac.local:1234", password: "pw" })).toEqual({
      serverUrl: "http://mac.local:1234",
      password: "pw",
      registerWebhook: true,
      sendMethod: "auto",
      maxTextLength: 4_000,
      retries: 2,
      maxRetryAfterMs: 10_000,
      timeoutMs: 15_000,
      reconnectMinMs: 500,
      reconnectMaxMs: 30_000,
    });
  });

  it("names what is wrong: missing serverUrl, empty password, short secret, unknown keys", () => {
    expect(imessageConfigSchema.safeParse({ password: "pw" }).error?.issues[0]?.message).toMatch(
      /serverUrl is required/,
    );
    const empty = imessageConfigSchema.safeParse({ serverUrl: "http://m:1", password: "" });
    expect(empty.error?.issues[0]?.message).toMatch(/password must not be empty/);
    const short = imessageConfigSchema.safeParse({ serverUrl: "http://m:1", password: "pw", webhookSecret: "x" });
    expect(short.error?.issues[0]?.message).toMatch(/at least 16/);
    const typo = imessageConfigSchema.safeParse({ serverUrl: "http://m:1", password: "pw", pasword: "x" });
    expect(typo.error?.issues[0]?.code).toBe("unrecognized_keys");
  });
});
