import { describe, expect, it } from "vitest";
import { NEXTCLOUD_SECRET_KEYS, nextcloudConfigSchema } from "./config.js";

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

  it("files: the bot's Nextcloud account, with Talk's folder and the default upload limit; the app password is a secret", () => {
    const config = nextcloudConfigSchema.parse({
      baseUrl: "https://cloud.example.com",
      secret,
      files: { user: "chorus-bot", appPassword: "xxxxx-xxxxx-xxxxx-xxxxx-xxxxx" },
    });
    expect(config.files).toEqual({
      user: "chorus-bot",
      appPassword: "xxxxx-xxxxx-xxxxx-xxxxx-xxxxx",
      folder: "Talk",
      maxUploadBytes: 512 * 1024 * 1024,
    });
    expect(NEXTCLOUD_SECRET_KEYS).toContain("files.appPassword");
    const messages = (files: unknown) =>
      nextcloudConfigSchema
        .safeParse({ baseUrl: "https://c.example", secret, files })
        .error?.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    expect(messages({ user: "chorus-bot" })).toEqual([
      "files.appPassword: files.appPassword is required: an app password of files.user",
    ]);
    expect(messages({ user: "a/b", appPassword: "p" })).toEqual([
      "files.user: files.user must be a login name, not a path",
    ]);
    expect(messages({ user: "u", appPassword: "p", folder: "Talk/../x" })).toEqual([
      "files.folder: files.folder must not contain . or .. segments",
    ]);
  });
});
