import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemoryStore } from "@chorus/channel-kit/state";
import { type ChannelLoginContext, type ChorusError, silentLogger } from "@chorus/core";
import { startChannel, validatePluginConfig } from "@chorus/testkit";
import { initAuthCreds } from "@whiskeysockets/baileys";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { WhatsAppConfig } from "../config.js";
import { whatsappChannel } from "../index.js";
import { saveLinkedCreds } from "../testing/index.js";

// Nothing here connects: the URL is one no test may reach, and no socket is opened without a link.
const UNREACHABLE = "ws://127.0.0.1:9/ws/chat";

let stateDir: string;
beforeEach(async () => {
  stateDir = await mkdtemp(join(tmpdir(), "chorus-wa-unlinked-"));
});
afterEach(async () => {
  await rm(stateDir, { recursive: true, force: true });
});

describe("an account without a linked device", () => {
  it("starts without connecting, says how to link, and fails every send with E_AUTH", async () => {
    const running = await startChannel(whatsappChannel, {
      config: { waWebSocketUrl: UNREACHABLE },
      accountId: "work",
      stateDir,
    });
    try {
      const { instance } = running;
      expect(instance.status()).toEqual({
        state: "stopped",
        detail:
          "not linked: run `chorus channels login whatsapp --account work` and scan the QR code with WhatsApp on your phone; this account connects as soon as it is linked",
      });
      expect(instance.identity?.()).toBeUndefined();
      const sending = instance.send({ id: "15551230001@s.whatsapp.net" }, { text: "hello" });
      await expect(sending).rejects.toMatchObject({
        code: "E_AUTH",
        message: expect.stringContaining("chorus channels login whatsapp --account work"),
      });
      await expect(instance.setTyping({ id: "15551230001@s.whatsapp.net" }, true)).rejects.toMatchObject({
        code: "E_AUTH",
      });
      const ref = await instance.resolveMessageRef({ id: "15551230001@s.whatsapp.net" }, "3EB0AAAA");
      await expect(instance.react(ref, { op: "add", emoji: "👍" })).rejects.toMatchObject({ code: "E_AUTH" });
    } finally {
      await running.stop();
    }
  });

  it("the default account's hint has no --account", async () => {
    const running = await startChannel(whatsappChannel, { config: { waWebSocketUrl: UNREACHABLE }, stateDir });
    try {
      const failure = (await running.instance
        .send({ id: "120363025246125888@g.us" }, { text: "x" })
        .catch((error: unknown) => error)) as ChorusError;
      expect(failure.hint).toBe("Run: chorus channels login whatsapp");
    } finally {
      await running.stop();
    }
  });
});

describe("login", () => {
  async function loginContext(options: { phone?: string } = {}) {
    const lines: string[] = [];
    const qrs: string[] = [];
    const ctx: ChannelLoginContext<WhatsAppConfig> = {
      config: await validatePluginConfig(whatsappChannel, { waWebSocketUrl: UNREACHABLE }),
      accountId: "default",
      store: new MemoryStore(),
      stateDir,
      logger: silentLogger,
      signal: new AbortController().signal,
      options,
      showQr: (data) => qrs.push(data),
      print: (line) => lines.push(line),
    };
    return { ctx, lines, qrs };
  }

  it("an account that is already linked is reported without connecting", async () => {
    await saveLinkedCreds(stateDir, {
      ...initAuthCreds(),
      me: { id: "15550001111:4@s.whatsapp.net", name: "Chorus" },
      registered: true,
    });
    const { ctx, lines, qrs } = await loginContext();
    expect(await whatsappChannel.login?.(ctx)).toEqual({ account: "+15550001111" });
    expect(lines.join("\n")).toMatch(/already linked as \+15550001111/);
    expect(qrs).toEqual([]);
  });

  it("a --phone that is no phone number is refused before anything happens", async () => {
    const { ctx } = await loginContext({ phone: "my phone" });
    await expect(whatsappChannel.login?.(ctx)).rejects.toMatchObject({
      code: "E_INVALID_INPUT",
      hint: expect.stringContaining("--phone +15551234567"),
    });
  });
});
