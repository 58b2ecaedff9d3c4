import { eventually } from "@chorus/testkit";
import { getContentType, normalizeMessageContent, type WAMessage } from "@whiskeysockets/baileys";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { BaileysClient } from "./baileys-client.js";
import { type FakeSession, openFakeSession, PATIENCE } from "./fake-session.js";

/** The notified message with this id, once Baileys emitted it. */
function notified(client: BaileysClient, id: string): Promise<WAMessage> {
  return eventually(() => {
    const found = client.upserts
      .filter((upsert) => upsert.type === "notify")
      .flatMap((upsert) => upsert.messages)
      .find((message) => message.key.id === id);
    if (!found) throw new Error(`message ${id} was not notified`);
    return found;
  }, PATIENCE);
}

describe("fake WhatsApp: what reaches the bot", () => {
  let session: FakeSession;
  beforeEach(async () => {
    session = await openFakeSession();
  });
  afterEach(() => session.close());

  it("delivers group mentions of the bot by phone-number JID and by LID", async () => {
    const { fake } = session;
    const ann = fake.addPerson({ phone: "15550002222", name: "Ann" });
    const pnGroup = fake.addGroup({ subject: "Old", participants: [ann.phone], addressingMode: "pn" });
    const lidGroup = fake.addGroup({ subject: "New", participants: [ann.phone] });
    const client = await session.connectOpen();

    const byPhone = fake.personSends({ from: ann.phone, chat: pnGroup.id, text: "@bot hi", mentions: [fake.bot.jid] });
    const byLid = fake.personSends({
      from: ann.phone,
      chat: lidGroup.id,
      text: "@bot hey",
      mentions: [fake.bot.lidJid],
    });

    const first = await notified(client, byPhone.id);
    expect(first.key).toMatchObject({ remoteJid: pnGroup.id, participant: ann.jid, fromMe: false });
    expect(first.key.participantAlt).toBe(ann.lidJid);
    expect(first.pushName).toBe("Ann");
    expect(first.message?.extendedTextMessage?.contextInfo?.mentionedJid).toEqual([fake.bot.jid]);
    const second = await notified(client, byLid.id);
    expect(second.key).toMatchObject({ remoteJid: lidGroup.id, participant: ann.lidJid, participantAlt: ann.jid });
    expect(second.message?.extendedTextMessage?.contextInfo?.mentionedJid).toEqual([fake.bot.lidJid]);
    expect(fake.messagesIn(lidGroup.id)[0]).toMatchObject({
      origin: "person",
      sender: ann.jid,
      mentions: [fake.bot.lidJid],
    });
  }, 30_000);

  it("delivers ephemeral and view-once wrapped content, and replies with their quote", async () => {
    const { fake } = session;
    const ann = fake.addPerson({ phone: "15550002222", name: "Ann" });
    const client = await session.connectOpen();
    const wrapped = fake.personSends({
      from: ann.phone,
      message: { ephemeralMessage: { message: { extendedTextMessage: { text: "disappearing" } } } },
    });
    const once = fake.personSends({
      from: ann.phone,
      message: { viewOnceMessageV2: { message: { imageMessage: { caption: "look once", mimetype: "image/jpeg" } } } },
    });
    const reply = fake.personSends({ from: ann.phone, text: "see above", replyTo: wrapped.id });

    const ephemeral = normalizeMessageContent((await notified(client, wrapped.id)).message);
    expect(ephemeral?.extendedTextMessage?.text).toBe("disappearing");
    const viewOnce = normalizeMessageContent((await notified(client, once.id)).message);
    expect(getContentType(viewOnce)).toBe("imageMessage");
    expect(viewOnce?.imageMessage?.caption).toBe("look once");
    const quoting = await notified(client, reply.id);
    expect(quoting.message?.extendedTextMessage?.contextInfo).toMatchObject({
      stanzaId: wrapped.id,
      participant: ann.jid,
    });
    expect(fake.messagesIn(ann.phone).map((message) => message.text)).toEqual([
      "disappearing",
      "look once",
      "see above",
    ]);
  }, 30_000);

  it("turns a person's reaction into messages.reaction and keeps one slot per person", async () => {
    const { fake } = session;
    const ann = fake.addPerson({ phone: "15550002222", name: "Ann" });
    const group = fake.addGroup({ subject: "Team", participants: [ann.phone] });
    const client = await session.connectOpen();
    const sent = await client.sock.sendMessage(group.id, { text: "vote" });
    const id = sent?.key.id ?? "";
    await eventually(() => expect(fake.botMessages(group.id)).toHaveLength(1), PATIENCE);

    fake.personReacts({ from: ann.phone, chat: group.id, target: id, emoji: "🎉" });
    fake.personReacts({ from: ann.phone, chat: group.id, target: id, emoji: "❤️" });
    await eventually(() => expect(client.reactions.flat()).toHaveLength(2), PATIENCE);
    const [first, second] = client.reactions.flat();
    expect(first?.key).toMatchObject({ remoteJid: group.id, id });
    expect(first?.reaction.text).toBe("🎉");
    expect(second?.reaction.text).toBe("❤️");
    expect(second?.reaction.key?.participant).toBe(ann.lidJid);
    expect(fake.reactionsOn(group.id, id)).toEqual({ [ann.jid]: "❤️" });

    fake.personReacts({ from: ann.phone, chat: group.id, target: id, emoji: "" });
    await eventually(() => expect(client.reactions.flat()).toHaveLength(3), PATIENCE);
    expect(client.reactions.flat()[2]?.reaction.text).toBeFalsy();
    expect(fake.reactionsOn(group.id, id)).toEqual({});
  }, 30_000);

  it("delivers what the owner types on the phone as fromMe", async () => {
    const { fake } = session;
    const ann = fake.addPerson({ phone: "15550002222", name: "Ann" });
    const group = fake.addGroup({ subject: "Team", participants: [ann.phone] });
    const client = await session.connectOpen();
    const direct = fake.ownerSends({ chat: ann.phone, text: "from my phone" });
    const inGroup = fake.ownerSends({ chat: group.id, text: "me too" });

    const first = await notified(client, direct.id);
    expect(first.key).toMatchObject({ remoteJid: ann.jid, fromMe: true });
    const second = await notified(client, inGroup.id);
    expect(second.key).toMatchObject({ remoteJid: group.id, fromMe: true, participant: fake.bot.lidJid });
    expect(fake.messagesIn(ann.jid)[0]).toMatchObject({ origin: "owner", sender: fake.bot.jid, fromBot: false });
  }, 30_000);

  it("addresses a LID person's direct messages by LID with the phone number as the alternate", async () => {
    const { fake } = session;
    const cat = fake.addPerson({ phone: "15550004444", name: "Cat", addressing: "lid" });
    const client = await session.connectOpen();
    const key = fake.personSends({ from: cat.phone, text: "hello" });
    const message = await notified(client, key.id);
    expect(message.key).toMatchObject({ remoteJid: cat.lidJid, remoteJidAlt: cat.jid, fromMe: false });
  }, 30_000);

  it("keeps messages sent while the bot is away and delivers them as offline at the next login", async () => {
    const { fake } = session;
    const ann = fake.addPerson({ phone: "15550002222", name: "Ann" });
    const key = fake.personSends({ from: ann.phone, text: "while you were out" });
    const client = await session.connectOpen();
    await eventually(() => {
      const appended = client.upserts.filter((upsert) => upsert.type === "append").flatMap((upsert) => upsert.messages);
      expect(appended.map((message) => message.key.id)).toContain(key.id);
    }, PATIENCE);
    expect(client.upserts.filter((upsert) => upsert.type === "notify")).toEqual([]);
  }, 30_000);
});
