import { eventually } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeSession, openFakeSession, PATIENCE } from "./fake-session.js";
import { createMemoryKeyStore } from "./memory-key-store.js";

describe("fake WhatsApp: faults", () => {
  let session: FakeSession;
  beforeEach(async () => {
    session = await openFakeSession();
  });
  afterEach(() => session.close());

  it("logs the device out: the open socket closes with 401 and the next login is refused with 401", async () => {
    const { fake } = session;
    const creds = fake.linkedCreds();
    const client = await session.connectOpen({ creds });
    fake.logOut();
    expect(await client.closed()).toBe(401);
    expect(fake.linkedDevices()).toEqual([]);
    const again = session.connect({ creds });
    expect(await again.closed()).toBe(401);
    expect(fake.logins).toBe(1);
  }, 30_000);

  it("forgets a device that logged itself out", async () => {
    const { fake } = session;
    const creds = fake.linkedCreds();
    const client = await session.connectOpen({ creds });
    await client.sock.logout();
    expect(await client.closed()).toBe(401);
    await eventually(() => expect(fake.linkedDevices()).toEqual([]), PATIENCE);
    expect(await session.connect({ creds }).closed()).toBe(401);
  }, 30_000);

  it("drops the network: Baileys closes with a retryable code and the same creds reconnect", async () => {
    const { fake } = session;
    const creds = fake.linkedCreds();
    const keys = createMemoryKeyStore();
    const client = await session.connectOpen({ creds, keys });
    await fake.dropConnections();
    // DisconnectReason.connectionClosed: Baileys reconnects on anything but loggedOut (401).
    expect(await client.closed()).toBe(428);
    await session.connectOpen({ creds, keys });
    expect(fake.logins).toBe(2);
  }, 30_000);

  it("answers a queued iq fault once, then the real answer", async () => {
    const { fake } = session;
    const ann = fake.addPerson({ phone: "15550002222", name: "Ann" });
    const group = fake.addGroup({ subject: "Team", participants: [ann.phone] });
    const client = await session.connectOpen();
    fake.failNextIq({ xmlns: "w:g2" }, { code: 429, text: "rate-overlimit" });
    // Baileys' query() turns an <error> child into a Boom whose `data` is the code (statusCode stays 500).
    await expect(client.sock.groupMetadata(group.id)).rejects.toMatchObject({ message: "rate-overlimit", data: 429 });
    const metadata = await client.sock.groupMetadata(group.id);
    expect(metadata).toMatchObject({ id: group.id, subject: "Team", addressingMode: "lid" });
    expect(metadata.participants.map((participant) => participant.phoneNumber).sort()).toEqual(
      [ann.jid, fake.bot.jid].sort(),
    );
  }, 30_000);

  it("answers unknown groups with 404 and refuses logins it was told to refuse", async () => {
    const { fake } = session;
    const client = await session.connectOpen();
    await expect(client.sock.groupMetadata("120363999999999999@g.us")).rejects.toMatchObject({ data: 404 });
    fake.failNextLogin(503);
    const refused = session.connect();
    expect(await refused.closed()).toBe(503);
  }, 30_000);
});
