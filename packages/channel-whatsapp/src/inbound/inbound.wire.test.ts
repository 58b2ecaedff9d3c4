import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  ANN,
  BOB,
  BOT,
  documentWithCaption,
  ephemeralMention,
  pnJid,
  viewOnceMention,
} from "../fixtures/wire-messages.js";
import {
  messageEvent,
  messageEvents,
  openWireSession,
  WIRE_TEST_TIMEOUT,
  type WireSession,
} from "../fixtures/wire-session.js";

// Real Baileys receives what the fake's phones send; the plugin turns it into events.
let s: WireSession;
afterEach(async () => {
  const { problems } = s.fake;
  await s.close();
  expect(problems).toEqual([]);
});

/** Group lookups (`w:g2` iqs addressed to the group) the bot made. */
const groupLookups = (jid: string) => s.fake.stanzas({ xmlns: "w:g2" }).filter((stanza) => stanza.attrs.to === jid);

/**
 * Bob writes to the bot and the test waits for that event: events leave in the order WhatsApp
 * delivered the messages, so whatever was sent before and is not among the events was dropped.
 */
async function barrier(): Promise<void> {
  const key = s.fake.personSends({ from: BOB.phone, text: "barrier" });
  await messageEvent(s.channel, key.id);
}

describe("inbound messages over the wire", () => {
  beforeEach(async () => {
    s = await openWireSession();
  }, WIRE_TEST_TIMEOUT);

  it(
    "a mention of the bot's phone number in a phone-number group: mentions.bot, title and members from metadata",
    async () => {
      const key = s.fake.personSends({
        from: ANN.phone,
        chat: s.club.id,
        text: `@${BOT.phone} what's for dinner?`,
        mentions: [BOT.phone],
      });
      const event = await messageEvent(s.channel, key.id);
      expect(event).toEqual({
        type: "message",
        eventId: `wa:${s.club.id}:${key.id}`,
        conversation: {
          id: s.club.id,
          kind: "group",
          title: "Book club",
          members: expect.arrayContaining([
            { id: s.ann.jid, name: ANN.name, e164: `+${ANN.phone}` },
            { id: s.bob.jid, e164: `+${BOB.phone}` },
            { id: pnJid(BOT), name: BOT.name, e164: `+${BOT.phone}`, isBot: true },
          ]),
        },
        sender: { id: s.ann.jid, name: ANN.name, e164: `+${ANN.phone}` },
        text: `@${BOT.name} what's for dinner?`,
        mentions: { bot: true, others: [] },
        ref: {
          channel: "whatsapp",
          accountId: "default",
          conversationId: s.club.id,
          messageId: key.id,
          fromBot: false,
          data: { remoteJid: s.club.id, fromMe: false, participant: s.ann.jid },
        },
        timestamp: expect.any(Number),
      });
      expect(event.conversation.members).toHaveLength(3);
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "a mention of the bot's LID in a LID group: mentions.bot, the sender mapped to their phone number",
    async () => {
      const key = s.fake.personSends({
        from: ANN.phone,
        chat: s.team.id,
        text: `@${BOT.lid} are you there?`,
        mentions: [BOT.phone],
      });
      const event = await messageEvent(s.channel, key.id);
      const stanza = s.fake.messagesIn(s.team.id).find((message) => message.id === key.id);
      expect(stanza?.mentions).toEqual([s.fake.bot.lidJid]);
      expect(event.mentions).toEqual({ bot: true, others: [] });
      expect(event.text).toBe(`@${BOT.name} are you there?`);
      expect(event.sender).toEqual({ id: s.ann.jid, name: ANN.name, e164: `+${ANN.phone}` });
      expect(event.conversation).toMatchObject({ id: s.team.id, kind: "group", title: "Team" });
      // The ref keeps the author as WhatsApp addresses them in this group: by LID.
      expect(event.ref.data).toEqual({ remoteJid: s.team.id, fromMe: false, participant: s.ann.lidJid });
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "a mention of someone else only: mentions.bot false, the other listed by phone-number JID",
    async () => {
      const key = s.fake.personSends({
        from: ANN.phone,
        chat: s.team.id,
        text: `@${BOB.lid} your turn`,
        mentions: [BOB.phone],
      });
      const event = await messageEvent(s.channel, key.id);
      expect(event.mentions).toEqual({ bot: false, others: [s.bob.jid] });
      // Bob has not written yet, so his name is unknown: his number stands in for the LID.
      expect(event.text).toBe(`@${BOB.phone} your turn`);
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "ephemeral, view-once and document-with-caption wrappers: text and mentions come out",
    async () => {
      const vanishing = s.fake.personSends({ from: ANN.phone, chat: s.team.id, message: ephemeralMention });
      const viewOnce = s.fake.personSends({ from: ANN.phone, chat: s.team.id, message: viewOnceMention });
      const document = s.fake.personSends({ from: BOB.phone, chat: s.club.id, message: documentWithCaption });
      expect(await messageEvent(s.channel, vanishing.id)).toMatchObject({
        text: `@${BOT.name} this will vanish`,
        mentions: { bot: true, others: [] },
      });
      expect(await messageEvent(s.channel, viewOnce.id)).toMatchObject({
        text: `look @${BOT.name} and @${BOB.phone}`,
        attachments: [{ kind: "image", mime: "image/jpeg" }],
        mentions: { bot: true, others: [s.bob.jid] },
      });
      expect(await messageEvent(s.channel, document.id)).toMatchObject({
        text: `menu for @${BOT.name}`,
        attachments: [{ kind: "file", filename: "menu.pdf" }],
        mentions: { bot: true, others: [] },
        sender: { id: s.bob.jid, e164: `+${BOB.phone}` },
      });
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "a reply to the bot's own message: replyTo.fromBot with the quoted text",
    async () => {
      const sent = await s.channel.instance.send({ id: s.team.id }, { text: "Pasta at 7." });
      const key = s.fake.personSends({
        from: ANN.phone,
        chat: s.team.id,
        text: "sounds good",
        replyTo: sent.messageId,
      });
      const event = await messageEvent(s.channel, key.id);
      expect(event.replyTo).toEqual({
        messageId: sent.messageId,
        fromBot: true,
        text: "Pasta at 7.",
        senderId: pnJid(BOT),
      });
      expect(event.mentions).toEqual({ bot: false, others: [] });
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "direct messages: the sender's E.164 from a phone-number JID and from a LID with its phone number alongside",
    async () => {
      const cat = s.fake.addPerson({ phone: "15551230003", name: "Cat", addressing: "lid" });
      const fromAnn = s.fake.personSends({ from: ANN.phone, text: "hi, are you free later?" });
      const fromCat = s.fake.personSends({ from: cat.phone, text: "hello from my LID" });
      expect(await messageEvent(s.channel, fromAnn.id)).toMatchObject({
        conversation: { id: s.ann.jid, kind: "direct", title: ANN.name },
        sender: { id: s.ann.jid, name: ANN.name, e164: `+${ANN.phone}` },
        mentions: { bot: false, others: [] },
      });
      const event = await messageEvent(s.channel, fromCat.id);
      expect(fromCat.remoteJid).toBe(cat.lidJid);
      expect(event.sender).toEqual({ id: cat.jid, name: "Cat", e164: "+15551230003" });
      expect(event.conversation).toMatchObject({ id: cat.lidJid, kind: "direct" });
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "the owner writing in a group from the phone is input, sent by the bot's own number",
    async () => {
      const key = s.fake.ownerSends({ chat: s.team.id, text: "/activation always" });
      const event = await messageEvent(s.channel, key.id);
      expect(event.sender).toMatchObject({ id: pnJid(BOT), e164: `+${BOT.phone}` });
      expect(event.ref.data).toMatchObject({ remoteJid: s.team.id, fromMe: true });
      expect(event.text).toBe("/activation always");
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "status updates and the bot's own sends are not input; a redelivered message keeps its eventId",
    async () => {
      const status = s.fake.personSends({ from: ANN.phone, chat: "status@broadcast", text: "At the beach!" });
      const sent = await s.channel.instance.send({ id: s.team.id }, { text: "my own words" });
      const first = s.fake.personSends({ from: ANN.phone, chat: s.team.id, text: "once", timestamp: 1_767_225_600 });
      // WhatsApp delivers a message again (same id) when the device did not confirm it in time.
      s.fake.personSends({ from: ANN.phone, chat: s.team.id, text: "once", id: first.id, timestamp: 1_767_225_600 });
      await barrier();
      const ids = messageEvents(s.channel).map((event) => event.ref.messageId);
      expect(ids.filter((id) => id === first.id)).toHaveLength(1);
      // The plugin emits the redelivery with the same eventId, and the host (like the gateway) drops it.
      expect(s.channel.duplicates.map((event) => event.eventId)).toEqual([`wa:${s.team.id}:${first.id}`]);
      expect(ids).not.toContain(status.id);
      expect(ids).not.toContain(sent.messageId);
      // The status reached the bot's device: it was dropped, not lost.
      expect(s.fake.stanzas({ tag: "receipt" }).some((receipt) => receipt.attrs.id === status.id)).toBe(true);
    },
    WIRE_TEST_TIMEOUT,
  );
});

describe("messages the plugin cannot read", () => {
  beforeEach(async () => {
    s = await openWireSession();
  }, WIRE_TEST_TIMEOUT);

  it(
    "a message whose content is no protobuf leaves a warning naming it and why; WhatsApp is asked again; the next one arrives",
    async () => {
      const damaged = s.fake.personSendsUnreadable({ from: ANN.phone, chat: s.team.id });
      await barrier();
      const warning = s.channel.logs
        .at("warn")
        .find((record) => record.message.startsWith("whatsapp: skipped a delivery it cannot read"));
      expect(warning?.message).toBe(
        `whatsapp: skipped a delivery it cannot read: message ${damaged.id} from ${s.ann.lidJid} in ${s.team.id}: invalid wire type 7 at offset 40`,
      );
      expect(messageEvents(s.channel).map((event) => event.ref.messageId)).not.toContain(damaged.id);
      // Baileys asked the sender's device to send it again.
      expect(s.fake.stanzas({ tag: "receipt" }).find((receipt) => receipt.attrs.id === damaged.id)?.attrs.type).toBe(
        "retry",
      );
    },
    WIRE_TEST_TIMEOUT,
  );
});

describe("group metadata over the wire", () => {
  it(
    "is fetched once for several messages and sends, then served from the cache",
    async () => {
      s = await openWireSession();
      const first = s.fake.personSends({ from: ANN.phone, chat: s.team.id, text: "one" });
      const second = s.fake.personSends({ from: BOB.phone, chat: s.team.id, text: "two" });
      await messageEvent(s.channel, first.id);
      await s.channel.instance.send({ id: s.team.id }, { text: "three" });
      const third = s.fake.personSends({ from: ANN.phone, chat: s.team.id, text: "four" });
      const event = await messageEvent(s.channel, third.id);
      await messageEvent(s.channel, second.id);
      expect(event.conversation.members?.map((member) => member.id).sort()).toEqual(
        [s.ann.jid, s.bob.jid, pnJid(BOT)].sort(),
      );
      expect(groupLookups(s.team.id)).toHaveLength(1);
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "is fetched again once groupMetadataTtlMs has passed, and then shows the new subject",
    async () => {
      const ttl = 60_000;
      let now = Date.now();
      s = await openWireSession({ config: { groupMetadataTtlMs: ttl }, clock: () => now });
      const first = s.fake.personSends({ from: ANN.phone, chat: s.team.id, text: "before" });
      expect((await messageEvent(s.channel, first.id)).conversation.title).toBe("Team");
      s.fake.group(s.team.id).subject = "Team (renamed)";
      const still = s.fake.personSends({ from: ANN.phone, chat: s.team.id, text: "within the TTL" });
      expect((await messageEvent(s.channel, still.id)).conversation.title).toBe("Team");
      // The instance's clock moves past the TTL: the cached entry has expired, without waiting for it.
      now += ttl;
      const second = s.fake.personSends({ from: ANN.phone, chat: s.team.id, text: "after" });
      expect((await messageEvent(s.channel, second.id)).conversation.title).toBe("Team (renamed)");
      expect(groupLookups(s.team.id)).toHaveLength(2);
    },
    WIRE_TEST_TIMEOUT,
  );
});
