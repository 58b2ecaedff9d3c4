import { mkdtemp, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemoryStore } from "@chorus/channel-kit/state";
import type { ChannelLoginContext } from "@chorus/core";
import { eventually, LogRecorder, startChannel, validatePluginConfig, waitFor } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { WhatsAppConfig } from "../config.js";
import { ANN, BOT, pnJid } from "../fixtures/wire-messages.js";
import { messageEvent, PATIENCE, removeStateDir, WIRE_TEST_TIMEOUT, wireConfig } from "../fixtures/wire-session.js";
import { whatsappChannel } from "../index.js";
import { createFakeWhatsApp, type FakeWhatsApp, saveLinkedCreds } from "../testing/index.js";

// `chorus channels login whatsapp` as the gateway runs it: the plugin's login() against the fake,
// whose phone scans the QR code or takes the pairing code.
let fake: FakeWhatsApp;
let stateDir: string;
const stops: (() => Promise<void>)[] = [];

beforeEach(async () => {
  fake = createFakeWhatsApp({ botPhone: BOT.phone, botLid: BOT.lid, botName: BOT.name });
  await fake.start();
  fake.addPerson(ANN);
  stateDir = await mkdtemp(join(tmpdir(), "chorus-wa-login-"));
});
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
  await fake.close();
  await removeStateDir(stateDir);
});

async function loginContext(options: { phone?: string; signal?: AbortSignal } = {}) {
  const qrs: string[] = [];
  const lines: string[] = [];
  const logs = new LogRecorder();
  const ctx: ChannelLoginContext<WhatsAppConfig> = {
    config: await validatePluginConfig(whatsappChannel, wireConfig(fake)),
    accountId: "default",
    store: new MemoryStore(),
    stateDir,
    logger: logs.logger,
    signal: options.signal ?? new AbortController().signal,
    options: options.phone === undefined ? {} : { phone: options.phone },
    showQr: (data) => qrs.push(data),
    print: (line) => lines.push(line),
  };
  return { ctx, qrs, lines, logs };
}

function login(ctx: ChannelLoginContext<WhatsAppConfig>) {
  if (!whatsappChannel.login) throw new Error("the WhatsApp plugin has no login");
  return whatsappChannel.login(ctx);
}

describe("linking the account", () => {
  it(
    "by QR code: the phone scans it, the creds are stored, and an instance on that stateDir runs",
    async () => {
      const { ctx, qrs } = await loginContext();
      const linking = login(ctx);
      const qr = await waitFor(() => qrs[0], { ...PATIENCE, message: "the first QR code" });
      expect(qr).toMatch(/^https:\/\/wa\.me\/settings\/linked_devices#/);
      await fake.scanQr(qr);
      expect(await linking).toEqual({ account: `+${BOT.phone}` });
      expect(fake.linkedDevices()).toEqual([1]);
      expect(await readdir(join(stateDir, "auth"))).toContain("creds.json");

      const running = await startChannel(whatsappChannel, { config: wireConfig(fake), stateDir });
      stops.push(() => running.stop());
      expect(running.instance.status()).toMatchObject({ state: "running" });
      expect(running.instance.identity?.()).toMatchObject({ id: `${BOT.phone}@s.whatsapp.net`, e164: `+${BOT.phone}` });
      const key = fake.personSends({ from: ANN.phone, text: "welcome aboard" });
      expect((await messageEvent(running, key.id)).text).toBe("welcome aboard");
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "an instance already running unlinked connects by itself once the login has finished",
    async () => {
      const running = await startChannel(whatsappChannel, { config: wireConfig(fake), stateDir });
      stops.push(() => running.stop());
      expect(running.instance.status()).toMatchObject({
        state: "stopped",
        detail: expect.stringMatching(/^not linked/),
      });

      const { ctx, qrs, lines } = await loginContext();
      const linking = login(ctx);
      const qr = await waitFor(() => qrs[0], { ...PATIENCE, message: "the first QR code" });
      await fake.scanQr(qr);
      await linking;
      expect(lines).toContain(
        "A running gateway connects this account by itself; otherwise start it with `chorus start`.",
      );
      // The login logged in once (after the 515 restart); the running instance makes the second.
      await eventually(() => expect(running.instance.status().state).toBe("running"), PATIENCE);
      expect(fake.logins).toBe(2);
      expect(running.instance.identity?.()).toMatchObject({ e164: `+${BOT.phone}` });
      const key = fake.personSends({ from: ANN.phone, text: "you are live" });
      expect((await messageEvent(running, key.id)).text).toBe("you are live");
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "after WhatsApp logged the device out, linking again brings the running instance back",
    async () => {
      await saveLinkedCreds(stateDir, fake.linkedCreds());
      const running = await startChannel(whatsappChannel, { config: wireConfig(fake), stateDir });
      stops.push(() => running.stop());
      expect(running.instance.status().state).toBe("running");
      fake.logOut();
      await eventually(() => expect(running.instance.status().detail).toMatch(/^logged out: /), PATIENCE);
      await eventually(async () => expect(await readdir(join(stateDir, "auth"))).not.toContain("creds.json"), PATIENCE);

      const { ctx, qrs } = await loginContext();
      const linking = login(ctx);
      await fake.scanQr(await waitFor(() => qrs[0], { ...PATIENCE, message: "the first QR code" }));
      await linking;
      await eventually(() => expect(running.instance.status().state).toBe("running"), PATIENCE);
      // The logged-out device 1 stays refused; the new link is device 2.
      expect(fake.linkedDevices()).toEqual([2]);
      const ref = await running.instance.send({ id: pnJid(ANN) }, { text: "back again" });
      expect(fake.botMessages(pnJid(ANN)).map((m) => m.id)).toEqual([ref.messageId]);
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "by pairing code: the printed code typed on the phone links the device, and no QR code is shown",
    async () => {
      const { ctx, qrs, lines, logs } = await loginContext({ phone: `+1 555 000 ${BOT.phone.slice(-4)}` });
      const linking = login(ctx);
      await eventually(
        () => expect(fake.pairingCodeRequests()).toEqual([expect.objectContaining({ phone: BOT.phone })]),
        PATIENCE,
      );
      const line = await waitFor(() => lines.find((printed) => printed.startsWith("Your pairing code:")), PATIENCE);
      const [, first, second] = /([A-Z0-9]{4})-([A-Z0-9]{4})$/.exec(line) ?? [];
      await fake.enterPairingCode(`${first}${second}`);
      expect(await linking).toEqual({ account: `+${BOT.phone}` });
      expect(qrs).toEqual([]);
      expect(lines.join("\n")).toMatch(/Link with phone number instead/);
      expect(fake.pairingCodeRequests()).toEqual([expect.objectContaining({ linked: true })]);
      expect(await readdir(join(stateDir, "auth"))).toContain("creds.json");
      // The code is for the person's eyes only: never in a log line.
      expect(logs.records.length).toBeGreaterThan(0);
      expect(logs.text()).not.toContain(`${first}${second}`);
      expect(logs.text()).not.toContain(`${first}-${second}`);
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "an account already linked is reported at once, without connecting",
    async () => {
      await saveLinkedCreds(stateDir, fake.linkedCreds());
      const { ctx, qrs, lines } = await loginContext();
      expect(await login(ctx)).toEqual({ account: `+${BOT.phone}` });
      expect(lines).toEqual([expect.stringMatching(new RegExp(`already linked as \\+${BOT.phone}`))]);
      expect(qrs).toEqual([]);
      expect(fake.server.requests).toEqual([]);
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "cancelled while the QR code is shown: E_AUTH, and the account stays unlinked",
    async () => {
      const abort = new AbortController();
      const { ctx, qrs } = await loginContext({ signal: abort.signal });
      const linking = login(ctx);
      await waitFor(() => qrs.length > 0, PATIENCE);
      abort.abort();
      await expect(linking).rejects.toMatchObject({ code: "E_AUTH", message: "login cancelled" });
      expect(fake.linkedDevices()).toEqual([]);
      await eventually(() => expect(fake.connections).toBe(0), PATIENCE);

      const running = await startChannel(whatsappChannel, { config: wireConfig(fake), stateDir });
      stops.push(() => running.stop());
      expect(running.instance.status()).toMatchObject({
        state: "stopped",
        detail: expect.stringMatching(/^not linked/),
      });
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "an already aborted signal: E_AUTH cancelled",
    async () => {
      const abort = new AbortController();
      abort.abort();
      const { ctx, qrs } = await loginContext({ signal: abort.signal });
      await expect(login(ctx)).rejects.toMatchObject({ code: "E_AUTH", message: "login cancelled" });
      expect(qrs).toEqual([]);
    },
    WIRE_TEST_TIMEOUT,
  );
});
