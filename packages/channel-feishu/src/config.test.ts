import { describe, expect, it } from "vitest";
import { feishuConfigSchema, openApiBase } from "./config.js";
import { feishuChannel } from "./index.js";

const base = { appId: "cli_a1b2c3d4e5f60718", appSecret: "s3cret-value" };
const problems = (config: unknown) =>
  feishuConfigSchema.safeParse(config).error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`) ?? [];

describe("the config", () => {
  it("fills in the defaults: Feishu's domain, the long connection, the kit's retry and reconnect keys", () => {
    expect(feishuConfigSchema.parse(base)).toEqual({
      ...base,
      domain: "feishu",
      mode: "websocket",
      lookupTtlMs: 600_000,
      ffmpeg: "ffmpeg",
      retries: 2,
      maxRetryAfterMs: 10_000,
      timeoutMs: 15_000,
      reconnectMinMs: 500,
      reconnectMaxMs: 30_000,
    });
  });

  it("names Feishu, Lark or any Open API URL as the domain", () => {
    expect(openApiBase(feishuConfigSchema.parse(base))).toBe("https://open.feishu.cn");
    expect(openApiBase(feishuConfigSchema.parse({ ...base, domain: "lark" }))).toBe("https://open.larksuite.com");
    expect(openApiBase(feishuConfigSchema.parse({ ...base, domain: "http://127.0.0.1:8080/" }))).toBe(
      "http://127.0.0.1:8080",
    );
    expect(problems({ ...base, domain: "larkk" })).toEqual([
      'domain: domain must be "feishu", "lark" or an http(s) URL of the Open API',
    ]);
  });

  it("says where each credential is found when it is missing or malformed", () => {
    expect(problems({})).toEqual([
      "appId: appId is required (developer console → Credentials & Basic Info → App ID, cli_…)",
      "appSecret: appSecret is required (developer console → Credentials & Basic Info → App Secret)",
    ]);
    expect(problems({ ...base, appId: "cli_123" })).toEqual([
      "appId: appId must look like cli_ followed by 16 hex digits (developer console → App ID)",
    ]);
  });

  it("needs the verification token in webhook mode, and knows no other keys", () => {
    expect(problems({ ...base, mode: "webhook" })).toEqual([
      "verificationToken: verificationToken is required in webhook mode (Events & Callbacks → Encryption Strategy → Verification Token)",
    ]);
    expect(problems({ ...base, mode: "webhook", verificationToken: "v" })).toEqual([]);
    expect(problems({ ...base, appToken: "x" })).toEqual([': Unrecognized key: "appToken"']);
    expect(problems({ ...base, reconnectMinMs: 5_000, reconnectMaxMs: 1_000 })).toEqual([
      "reconnectMaxMs: reconnectMaxMs must be ≥ reconnectMinMs",
    ]);
  });

  it("takes ffmpeg as a command or false, and says so otherwise", () => {
    expect(feishuConfigSchema.parse({ ...base, ffmpeg: false }).ffmpeg).toBe(false);
    expect(feishuConfigSchema.parse({ ...base, ffmpeg: "/opt/ffmpeg/bin/ffmpeg" }).ffmpeg).toBe(
      "/opt/ffmpeg/bin/ffmpeg",
    );
    expect(problems({ ...base, ffmpeg: true })).toEqual([
      "ffmpeg: ffmpeg must be a command (a path or a name on PATH) or false",
    ]);
  });

  it("declares every credential as a secret", () => {
    expect(feishuChannel.secretKeys).toEqual(["appSecret", "verificationToken", "encryptKey"]);
  });
});
