import { eventually } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ANN, BOB, pnJid } from "../fixtures/wire-messages.js";
import {
  messageEvent,
  openWireSession,
  PATIENCE,
  WIRE_TEST_TIMEOUT,
  type WireSession,
} from "../fixtures/wire-session.js";

// What the plugin sends, as the fake's devices decrypted it. A send resolves only after
// WhatsApp's ack, and the fake files a message before it acks, so the state is read at once.
let s: WireSession;
beforeEach(async () => {
  s = await openWireSession();
}, WIRE_TEST_TIMEOUT);
afterEach(async () => {
  const { problems } = s.fake;
  await s.close();
  expect(problems).toEqual([]);
});

/** The `<message>` stanzas the bot wrote to a chat. */
const messageStanzas = (to: string) => s.fake.stanzas({ tag: "message" }).filter((stanza) => stanza.attrs.to === to);

describe("sending over the wire", () => {
  it(
    "a text lands in the chat under the id the returned ref holds",
    async () => {
      const ref = await s.channel.instance.send({ id: `+${ANN.phone}` }, { text: "hello Ann" });
      expect(ref).toEqual({
        channel: "whatsapp",
        accountId: "default",
        conversationId: s.ann.jid,
        messageId: expect.stringMatching(/^3EB0[0-9A-F]+$/),
        fromBot: true,
        data: { remoteJid: s.ann.jid, fromMe: true },
      });
      expect(s.fake.botMessages(s.ann.jid)).toEqual([
        expect.objectContaining({ id: ref.messageId, origin: "bot", text: "hello Ann", mentions: [] }),
      ]);
      expect(messageStanzas(s.ann.jid).map((stanza) => stanza.attrs.id)).toEqual([ref.messageId]);
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "a group message keys the bot as author, and people reached first directly can still read it",
    async () => {
      // One Signal session per device pair: the direct message and the group's sender key share it.
      await s.channel.instance.send({ id: s.ann.jid }, { text: "psst" });
      const ref = await s.channel.instance.send({ id: s.team.id }, { text: "hello team" });
      expect(ref.data).toEqual({ remoteJid: s.team.id, fromMe: true, participant: pnJid({ phone: s.fake.bot.phone }) });
      expect(s.fake.botMessages(s.team.id)).toEqual([
        expect.objectContaining({ id: ref.messageId, text: "hello team" }),
      ]);
      expect(messageStanzas(s.team.id)[0]?.attrs).toMatchObject({ id: ref.messageId, type: "text" });
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "a 9000-character text goes as 3 messages split between paragraphs, in order",
    async () => {
      const paragraphs = Array.from({ length: 30 }, (_, index) =>
        `Paragraph ${String(index + 1).padStart(2, "0")}: ${"lorem ipsum ".repeat(23)}`.padEnd(297, "x").concat("."),
      );
      const text = paragraphs.join("\n\n");
      expect(text).toHaveLength(8_998);
      const ref = await s.channel.instance.send({ id: s.team.id }, { text });
      const parts = s.fake.botMessages(s.team.id).map((message) => message.text ?? "");
      expect(parts).toHaveLength(3);
      expect(parts.map((part) => part.length <= 4_000)).toEqual([true, true, true]);
      expect(parts.every((part) => part.startsWith("Paragraph ") && part.endsWith("."))).toBe(true);
      expect(parts.join("\n\n")).toBe(text);
      expect(ref.messageId).toBe(s.fake.botMessages(s.team.id)[0]?.id);
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "mentions land as mentionedJid",
    async () => {
      await s.channel.instance.send(
        { id: s.team.id },
        { text: `@${ANN.phone} and @${BOB.phone}, dinner?`, mentions: [`+${ANN.phone}`, pnJid(BOB)] },
      );
      const [message] = s.fake.botMessages(s.team.id);
      expect(message?.mentions).toEqual([s.ann.jid, s.bob.jid]);
      expect(message?.text).toBe(`@${ANN.phone} and @${BOB.phone}, dinner?`);
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "a reply quotes the message: its id and its author as WhatsApp addressed them",
    async () => {
      const question = s.fake.personSends({ from: ANN.phone, chat: s.team.id, text: "who brings dessert?" });
      const event = await messageEvent(s.channel, question.id);
      await s.channel.instance.send({ id: s.team.id }, { text: "I will", replyTo: event.ref });
      const [answer] = s.fake.botMessages(s.team.id);
      expect(answer?.quoted).toEqual({ stanzaId: question.id, participant: s.ann.lidJid });
      expect(answer?.message.extendedTextMessage?.contextInfo?.quotedMessage).toEqual({
        conversation: "who brings dessert?",
      });
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "typing shows composing, then paused",
    async () => {
      await s.channel.instance.setTyping({ id: s.team.id }, true);
      await s.channel.instance.setTyping({ id: s.team.id }, false);
      await eventually(() => expect(s.fake.presence(s.team.id)).toEqual(["composing", "paused"]), PATIENCE);
    },
    WIRE_TEST_TIMEOUT,
  );
});
