import { describe, expect, it } from "vitest";
import { nextcloudConfigSchema } from "./config.js";

const secret = "s".repeat(40);

describe("channels.nextcloud config", () => {
  it("fills defaults", () => {
    expect(nextcloudConfigSchema.parse({ baseUrl: "https://cloud.example.com", secret })).toEqual({
      baseUrl: "https://cloud.example.com",
      secret,
      directConversations: [],
      maxTextLength: 32_000,
      retries: 2,
      maxRetryAfterMs: 10_000,
      timeoutMs: 15_000,
    });
  });

  it("names what is wrong: missing baseUrl, short secret, unknown keys", () => {
    const missing = nextcloudConfigSchema.safeParse({ secret });
    expect(missing.error?.issues[0]?.message).toMatch(/baseUrl is required/);
    const short = nextcloudConfigSchema.safeParse({ baseUrl: "https://c.example", secret: "short" });
    expect(short.error?.issues[0]?.message).toMatch(/40 to 128 characters/);
    const typo = nextcloudConfigSchema.safeParse({ baseUrl: "https://c.example", secret, secrte: "x" });
    expect(typo.error?.issues[0]?.code).toBe("unrecognized_keys");
  });
});
