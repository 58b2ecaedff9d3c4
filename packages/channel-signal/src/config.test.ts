import { validatePluginConfig } from "@chorus/testkit";
import { describe, expect, it } from "vitest";
import { daemonArgs, signalChannel } from "./index.js";

describe("channels.signal config", () => {
  it("fills in every default", async () => {
    expect(await validatePluginConfig(signalChannel, { account: "+15551234567" })).toEqual({
      account: "+15551234567",
      httpUrl: "http://127.0.0.1:8080",
      autoStart: false,
      cliPath: "signal-cli",
      startupTimeoutMs: 60_000,
      idleTimeoutMs: 60_000,
      retries: 2,
      maxRetryAfterMs: 10_000,
      timeoutMs: 15_000,
      reconnectMinMs: 500,
      reconnectMaxMs: 30_000,
    });
  });

  it("names each wrong key: the number, the URL, a typo", async () => {
    const error = await validatePluginConfig(signalChannel, {
      account: "0151 234567",
      httpUrl: "ftp://example.org",
      autostart: true,
    }).catch((e: unknown) => e);
    const message = (error as Error).message;
    expect(message).toContain("channels.signal.account: account must be a phone number in E.164 form");
    expect(message).toContain("channels.signal.httpUrl: httpUrl must be the http(s) URL of a signal-cli daemon");
    expect(message).toContain('Unrecognized key: "autostart"');
    await expect(validatePluginConfig(signalChannel, {})).rejects.toThrow(
      "channels.signal.account: account is required",
    );
  });

  it("wants a loopback httpUrl with autoStart, and derives the daemon's --http from it", async () => {
    await expect(
      validatePluginConfig(signalChannel, {
        account: "+15551234567",
        autoStart: true,
        httpUrl: "http://10.0.0.2:8080",
      }),
    ).rejects.toThrow("with autoStart the daemon listens on this machine");
    const config = await validatePluginConfig(signalChannel, {
      account: "+15551234567",
      autoStart: true,
      httpUrl: "http://localhost:18080",
    });
    expect(daemonArgs(config)).toEqual([
      "-a",
      "+15551234567",
      "daemon",
      "--http",
      "127.0.0.1:18080",
      "--receive-mode",
      "on-connection",
      "--no-receive-stdout",
    ]);
    expect(daemonArgs(config, true).slice(0, 3)).toEqual(["daemon", "--http", "127.0.0.1:18080"]);
  });

  it("keeps credentials out of httpUrl", async () => {
    await expect(
      validatePluginConfig(signalChannel, { account: "+15551234567", httpUrl: "http://u:secret-pass@proxy:8080" }),
    ).rejects.toThrow("put the proxy's credentials in auth, not in httpUrl");
  });

  it("declares the proxy password as the secret", () => {
    expect(signalChannel.secretKeys).toEqual(["auth.password"]);
  });
});
