import { validatePluginConfig } from "@chorus/testkit";
import { describe, expect, it } from "vitest";
import { whatsappChannel } from "./index.js";

describe("whatsappConfigSchema", () => {
  it("needs nothing: every key has a default", async () => {
    expect(await validatePluginConfig(whatsappChannel, {})).toEqual({
      waWebSocketUrl: "wss://web.whatsapp.com/ws/chat",
      browserName: "Chorus",
      groupMetadataTtlMs: 300_000,
      // The kit's reconnect defaults (reconnectOptionsShape), as every long-lived connection has them.
      reconnectMinMs: 500,
      reconnectMaxMs: 30_000,
      connectTimeoutMs: 20_000,
      ackTimeoutMs: 15_000,
      retries: 2,
      sendReadReceipts: false,
      offlineCatchUpMs: 600_000,
      qrTimeoutMs: 60_000,
    });
  });

  it("takes a loopback fake's URL and an auth directory", async () => {
    const config = await validatePluginConfig(whatsappChannel, {
      waWebSocketUrl: "ws://127.0.0.1:4567/ws/chat",
      authDir: "/var/lib/chorus/wa",
    });
    expect(config).toMatchObject({ waWebSocketUrl: "ws://127.0.0.1:4567/ws/chat", authDir: "/var/lib/chorus/wa" });
  });

  it("names what is wrong", async () => {
    await expect(validatePluginConfig(whatsappChannel, { waWebSocketUrl: "https://web.whatsapp.com" })).rejects.toThrow(
      /channels\.whatsapp\.waWebSocketUrl: waWebSocketUrl must be a ws:\/\/ or wss:\/\/ URL/,
    );
    await expect(validatePluginConfig(whatsappChannel, { reconnectMinMs: 5000, reconnectMaxMs: 100 })).rejects.toThrow(
      /channels\.whatsapp\.reconnectMaxMs: reconnectMaxMs must be ≥ reconnectMinMs/,
    );
    // The kit's retries key (retryOptionsShape), with zod's own words.
    await expect(validatePluginConfig(whatsappChannel, { retries: 1.5 })).rejects.toThrow(
      /channels\.whatsapp\.retries: /,
    );
    await expect(validatePluginConfig(whatsappChannel, { retries: 11 })).rejects.toThrow(
      /channels\.whatsapp\.retries: /,
    );
    await expect(validatePluginConfig(whatsappChannel, { connectTimeoutMs: 10 })).rejects.toThrow(
      /connectTimeoutMs must be at least 1000 ms/,
    );
    await expect(validatePluginConfig(whatsappChannel, { ackTimeoutMs: 50 })).rejects.toThrow(
      /channels\.whatsapp\.ackTimeoutMs: ackTimeoutMs must be at least 100 ms/,
    );
    await expect(validatePluginConfig(whatsappChannel, { ackTimeoutMs: "15s" })).rejects.toThrow(
      /ackTimeoutMs must be a number of milliseconds/,
    );
    await expect(validatePluginConfig(whatsappChannel, { browserName: "  " })).rejects.toThrow(/browserName/);
    await expect(validatePluginConfig(whatsappChannel, { token: "x" })).rejects.toThrow(/token/);
  });
});
