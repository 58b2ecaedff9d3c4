import { BufferJSON } from "@whiskeysockets/baileys";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeSession, openFakeSession } from "./fake-session.js";

describe("fake WhatsApp: login", () => {
  let session: FakeSession;
  beforeEach(async () => {
    session = await openFakeSession();
  });
  afterEach(() => session.close());

  it("lets a linked device log in until Baileys reports the connection open", async () => {
    const { fake } = session;
    const client = await session.connectOpen();
    expect(fake.logins).toBe(1);
    expect(fake.connections).toBe(1);
    expect(client.sock.user?.id).toBe(`${fake.bot.phone}:1@s.whatsapp.net`);
    expect(client.sock.user?.lid).toBe(`${fake.bot.lid}:1@lid`);
    expect(fake.stanzas({ xmlns: "passive", type: "set" })).toHaveLength(1);
    expect(fake.unhandled()).toEqual([]);
    expect(fake.problems).toEqual([]);
  }, 30_000);

  it("refuses a device it never linked with 401", async () => {
    const { fake } = session;
    const creds = fake.linkedCreds();
    creds.me = { id: `${fake.bot.phone}:42@s.whatsapp.net`, name: "stranger" };
    const client = session.connect({ creds });
    expect(await client.closed()).toBe(401);
    expect(fake.logins).toBe(0);
  }, 30_000);

  it("replaces the older connection when the same device logs in twice", async () => {
    const { fake } = session;
    const creds = fake.linkedCreds();
    const first = await session.connectOpen({ creds });
    const copy = JSON.parse(JSON.stringify(creds, BufferJSON.replacer), BufferJSON.reviver);
    const second = await session.connectOpen({ creds: copy });
    expect(await first.closed()).toBe(440);
    expect(second.updates.some((update) => update.connection === "close")).toBe(false);
    expect(fake.logins).toBe(2);
  }, 30_000);
});
