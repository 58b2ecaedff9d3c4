import { eventually } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeSession, openFakeSession, PATIENCE } from "./fake-session.js";

describe("fake WhatsApp: what the bot sends", () => {
  let session: FakeSession;
  beforeEach(async () => {
    session = await openFakeSession();
  });
  afterEach(() => session.close());

  it("decrypts a direct message with its mentions as the person's phone receives it", async () => {
    const { fake } = session;
    const ann = fake.addPerson({ phone: "15550002222", name: "Ann" });
    const client = await session.connectOpen();
    const sent = await client.sock.sendMessage(ann.jid, { text: "hi @15550002222", mentions: [ann.jid] });
    const [message] = await eventually(() => {
      const messages = fake.botMessages(ann.jid);
      expect(messages).toHaveLength(1);
      return messages;
    }, PATIENCE);
    expect(message).toMatchObject({
      id: sent?.key.id,
      chat: ann.jid,
      sender: fake.bot.jid,
      origin: "bot",
      text: "hi @15550002222",
      mentions: [ann.jid],
    });
    const stanza = fake.stanzas({ tag: "message" })[0];
    expect(stanza?.attrs).toMatchObject({ to: ann.jid, type: "text" });
    // A `reporting` child comes and goes: Baileys attaches a reporting token to some messages only.
    expect(stanza?.children).toEqual(expect.arrayContaining(["participants", "device-identity"]));
    expect(fake.problems).toEqual([]);
  }, 30_000);

  it("reads group messages through sender keys and keeps one reaction slot for the bot", async () => {
    const { fake } = session;
    const ann = fake.addPerson({ phone: "15550002222", name: "Ann" });
    const bob = fake.addPerson({ phone: "15550003333", name: "Bob" });
    const group = fake.addGroup({ subject: "Team", participants: [ann.phone, bob.phone], admins: [ann.phone] });
    const client = await session.connectOpen();
    const question = fake.personSends({ from: ann.phone, chat: group.id, text: "anyone?" });

    await client.sock.sendMessage(group.id, { text: "first" });
    await client.sock.sendMessage(group.id, { text: "second" });
    await eventually(
      () => expect(fake.botMessages(group.id).map((message) => message.text)).toEqual(["first", "second"]),
      PATIENCE,
    );
    const skmsgs = fake.stanzas({ tag: "message" }).filter((stanza) => stanza.attrs.to === group.id);
    expect(skmsgs.map((stanza) => stanza.children.includes("participants"))).toEqual([true, false]);

    const target = { remoteJid: group.id, id: question.id, fromMe: false, participant: ann.lidJid };
    await client.sock.sendMessage(group.id, { react: { text: "👍", key: target } });
    await eventually(() => expect(fake.botReaction(group.id, question.id)).toBe("👍"), PATIENCE);
    expect(fake.botReactionsSent()).toEqual([{ chat: group.id, key: target, text: "👍", at: expect.any(Number) }]);
    expect(fake.reactionsOn(group.id, question.id)).toEqual({ [fake.bot.jid]: "👍" });

    await client.sock.sendMessage(group.id, { react: { text: "", key: target } });
    await eventually(() => expect(fake.reactionsOn(group.id, question.id)).toEqual({}), PATIENCE);
    expect(fake.botReactionsSent().map((reaction) => reaction.text)).toEqual(["👍", ""]);
    expect(fake.problems).toEqual([]);
  }, 30_000);

  it("applies the bot's edits and deletions and records its chat states", async () => {
    const { fake } = session;
    const ann = fake.addPerson({ phone: "15550002222", name: "Ann" });
    const client = await session.connectOpen();
    await client.sock.sendPresenceUpdate("composing", ann.jid);
    const sent = await client.sock.sendMessage(ann.jid, { text: "draft" });
    const key = sent?.key;
    if (!key) throw new Error("sendMessage returned no key");
    await client.sock.sendMessage(ann.jid, { text: "final", edit: key });
    await client.sock.sendPresenceUpdate("paused", ann.jid);
    await eventually(
      () => expect(fake.botMessages(ann.jid)[0]).toMatchObject({ text: "final", edited: true }),
      PATIENCE,
    );
    await client.sock.sendMessage(ann.jid, { delete: key });
    await eventually(() => expect(fake.botMessages(ann.jid)[0]?.revoked).toBe(true), PATIENCE);
    expect(fake.presence(ann.jid)).toEqual(["composing", "paused"]);
  }, 30_000);

  it("reaches a person addressed by LID and a group addressed by phone numbers", async () => {
    const { fake } = session;
    const cat = fake.addPerson({ phone: "15550004444", name: "Cat", addressing: "lid" });
    const group = fake.addGroup({ subject: "Legacy", participants: [cat.phone], addressingMode: "pn" });
    const client = await session.connectOpen();
    await client.sock.sendMessage(cat.lidJid, { text: "to your LID" });
    await client.sock.sendMessage(group.id, { text: "to the PN group" });
    await eventually(() => {
      expect(fake.botMessages(cat.phone).map((message) => message.text)).toEqual(["to your LID"]);
      expect(fake.botMessages(group.id).map((message) => message.text)).toEqual(["to the PN group"]);
    }, PATIENCE);
    const [direct, inGroup] = fake.stanzas({ tag: "message" });
    expect(direct?.attrs.to).toBe(cat.lidJid);
    expect(inGroup?.attrs).toMatchObject({ to: group.id, addressing_mode: "pn" });
    expect(fake.problems).toEqual([]);
  }, 30_000);
});
