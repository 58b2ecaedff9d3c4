import { validatePluginConfig } from "@chorus/testkit";
import { describe, expect, it } from "vitest";
import { acmeChannel } from "./index.js";

const secret = "0123456789abcdef";

describe("channels.acme config", () => {
  it("fills in every default", async () => {
    expect(await validatePluginConfig(acmeChannel, { token: "t", webhookSecret: secret })).toEqual({
      baseUrl: "https://api.acme.example",
      token: "t",
      webhookSecret: secret,
      retries: 2,
      maxRetryAfterMs: 10_000,
      timeoutMs: 15_000,
    });
  });

  it("names each wrong key: missing credentials, a short secret, a non-http baseUrl, a typo", async () => {
    const error = await validatePluginConfig(acmeChannel, {
      webhookSecret: "short",
      baseUrl: "ftp://acme.example",
      tokne: "t",
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "E_INVALID_INPUT" });
    const message = (error as Error).message;
    expect(message).toContain("channels.acme.token: token is required");
    expect(message).toContain("channels.acme.webhookSecret: webhookSecret looks truncated");
    expect(message).toContain("channels.acme.baseUrl: baseUrl must be an http(s) URL");
    expect(message).toContain('Unrecognized key: "tokne"');
  });

  it("keeps retries bounded", async () => {
    await expect(validatePluginConfig(acmeChannel, { token: "t", webhookSecret: secret, retries: 50 })).rejects.toThrow(
      "channels.acme.retries",
    );
  });

  it("declares the token and the webhook secret as secrets, so nothing the channel reports shows them", () => {
    expect(acmeChannel.secretKeys).toEqual(["token", "webhookSecret"]);
  });
});
