import { eventually } from "@chorus/testkit";
import { initAuthCreds } from "@whiskeysockets/baileys";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeSession, openFakeSession, PATIENCE } from "./fake-session.js";
import { createMemoryKeyStore } from "./memory-key-store.js";

describe("fake WhatsApp: linking a new device", () => {
  let session: FakeSession;
  beforeEach(async () => {
    session = await openFakeSession();
  });
  afterEach(() => session.close());

  it("links by QR: pair-success, restart 515, then the new creds log in and receive messages", async () => {
    const { fake } = session;
    const ann = fake.addPerson({ phone: "15550002222", name: "Ann" });
    const creds = initAuthCreds();
    const keys = createMemoryKeyStore();
    const linking = session.connect({ creds, keys });
    const qr = await linking.qr();
    expect(qr).toMatch(/^https:\/\/wa\.me\/settings\/linked_devices#2@/);

    await fake.scanQr(qr);
    expect(await linking.closed()).toBe(515);
    expect(creds.me?.id).toBe(`${fake.bot.phone}:1@s.whatsapp.net`);
    expect(creds.me?.lid).toBe(`${fake.bot.lid}:1@lid`);
    expect(creds.account?.accountSignatureKey).toBeTruthy();
    expect(fake.linkedDevices()).toEqual([1]);

    const linked = await session.connectOpen({ creds, keys });
    expect(fake.logins).toBe(1);
    const key = fake.personSends({ from: ann.phone, text: "welcome" });
    await eventually(() => {
      const ids = linked.upserts.filter((u) => u.type === "notify").flatMap((u) => u.messages.map((m) => m.key.id));
      expect(ids).toContain(key.id);
    }, PATIENCE);
    expect(creds.accountSyncCounter).toBe(1);
    expect(fake.problems).toEqual([]);
  }, 40_000);

  it("links by pairing code once the code is typed on the phone", async () => {
    const { fake } = session;
    const creds = initAuthCreds();
    const keys = createMemoryKeyStore();
    const linking = session.connect({ creds, keys });
    await linking.qr();
    const code = await linking.sock.requestPairingCode(fake.bot.phone);
    expect(code).toMatch(/^[A-Z0-9]{8}$/);
    await eventually(
      () => expect(fake.pairingCodeRequests()).toEqual([expect.objectContaining({ phone: fake.bot.phone })]),
      PATIENCE,
    );

    await fake.enterPairingCode(code);
    expect(await linking.closed()).toBe(515);
    expect(creds.registered).toBe(true);
    await session.connectOpen({ creds, keys });
    expect(fake.linkedDevices()).toEqual([1]);
  }, 40_000);

  it("rejects a wrong pairing code and links nothing", async () => {
    const { fake } = session;
    const linking = session.connect({ creds: initAuthCreds() });
    await linking.qr();
    const code = await linking.sock.requestPairingCode(fake.bot.phone);
    await eventually(() => expect(fake.pairingCodeRequests()).toHaveLength(1), PATIENCE);
    const wrong = code === "AAAAAAAA" ? "BBBBBBBB" : "AAAAAAAA";
    await expect(fake.enterPairingCode(wrong)).rejects.toMatchObject({ code: "E_INVALID_INPUT" });
    expect(fake.linkedDevices()).toEqual([]);
  }, 40_000);
});
