import { validatePluginConfig } from "@chorus/testkit";
import { describe, expect, it } from "vitest";
import { SLACK_SECRET_KEYS, slackConfigSchema } from "./config.js";
import { slackChannel } from "./index.js";

const BOT = "xoxb-1-test";
const APP = "xapp-1-test";
const SECRET = "0123456789abcdef0123456789abcdef";
const problems = (input: unknown) => {
  const parsed = slackConfigSchema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
};

describe("channels.slack config", () => {
  it("defaults to Socket Mode with an app token, to HTTP without one, and fills in the rest", () => {
    expect(slackConfigSchema.parse({ botToken: BOT, appToken: APP })).toEqual({
      botToken: BOT,
      appToken: APP,
      mode: "socket",
      apiUrl: "https://slack.com/api/",
      fileHosts: ["https://files.slack.com", "https://files-origin.slack.com"],
      shareTimeoutMs: 10_000,
      replyInThread: false,
      lookupTtlMs: 600_000,
      retries: 2,
      maxRetryAfterMs: 10_000,
      timeoutMs: 15_000,
      reconnectMinMs: 500,
      reconnectMaxMs: 30_000,
    });
    expect(slackConfigSchema.parse({ botToken: BOT, signingSecret: SECRET }).mode).toBe("http");
    expect(slackConfigSchema.parse({ botToken: BOT, appToken: APP, signingSecret: SECRET, mode: "http" }).mode).toBe(
      "http",
    );
  });

  it("names what each mode is missing, and wrong tokens", () => {
    expect(problems({ botToken: BOT })).toEqual([
      'signingSecret: signingSecret is required for mode "http" (Basic Information → Signing Secret); or set appToken for Socket Mode',
    ]);
    expect(problems({ botToken: BOT, mode: "socket" })).toEqual([
      'appToken: appToken (xapp-…) is required for mode "socket" (Basic Information → App-Level Tokens)',
    ]);
    expect(problems({ botToken: "xoxp-user", appToken: APP })).toEqual([
      "botToken: botToken must be a xoxb-… token (OAuth & Permissions → Bot User OAuth Token)",
    ]);
    expect(problems({ appToken: APP })).toEqual([
      "botToken: botToken is required (OAuth & Permissions → Bot User OAuth Token)",
    ]);
    expect(problems({ botToken: BOT, appToken: "xoxb-wrong" })[0]).toMatch(
      /^appToken: appToken must be a xapp-… token/,
    );
  });

  it("refuses unknown keys (a typo is an error, not a silent default) and a bad apiUrl", () => {
    expect(problems({ botToken: BOT, appToken: APP, bot_token: "x" })[0]).toMatch(/bot_token/);
    expect(problems({ botToken: BOT, appToken: APP, apiUrl: "slack.com" })).toEqual([
      "apiUrl: apiUrl must be an http(s) URL of Slack's Web API",
    ]);
  });

  it("takes the file hosts as origins (where the token may go), and refuses a URL with a path", () => {
    const hosts = (fileHosts: unknown) =>
      slackConfigSchema.parse({ botToken: BOT, appToken: APP, fileHosts }).fileHosts;
    expect(hosts(["https://files.slack-gov.com/", "http://127.0.0.1:8080"])).toEqual([
      "https://files.slack-gov.com",
      "http://127.0.0.1:8080",
    ]);
    expect(problems({ botToken: BOT, appToken: APP, fileHosts: ["https://files.slack.com/files-pri"] })).toEqual([
      "fileHosts.0: fileHosts lists origins (scheme and host, no path), like https://files.slack.com",
    ]);
    expect(problems({ botToken: BOT, appToken: APP, fileHosts: [] })[0]).toMatch(/^fileHosts:/);
  });

  it("declares its secret keys, and the host validates with the plugin's schema", async () => {
    expect(slackChannel.secretKeys).toEqual(SLACK_SECRET_KEYS);
    expect(SLACK_SECRET_KEYS).toEqual(["botToken", "appToken", "signingSecret"]);
    await expect(validatePluginConfig(slackChannel, { botToken: BOT })).rejects.toThrow(/signingSecret/);
  });
});
