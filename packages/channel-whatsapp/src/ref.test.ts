import type { MessageRef } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { bot, family } from "./fixtures/messages.js";
import { addressOfRef, messageKeyOf, whatsappMessageRef } from "./ref.js";

describe("messageKeyOf (the key a reaction or quote is sent with)", () => {
  it("a group message by someone else carries its author as participant, as WhatsApp addressed them", () => {
    const ref = whatsappMessageRef(
      bot,
      { remoteJid: family.id, id: "3EB0AAAA", fromMe: false, participant: "100000000000001@lid" },
      false,
    );
    expect(messageKeyOf(ref, bot)).toEqual({
      remoteJid: family.id,
      id: "3EB0AAAA",
      fromMe: false,
      participant: "100000000000001@lid",
    });
  });

  it("a group message without its author is E_MESSAGE_NOT_FOUND (WhatsApp would silently show nothing)", () => {
    const ref: MessageRef = {
      channel: "whatsapp",
      accountId: "default",
      conversationId: family.id,
      messageId: "3EB0BBBB",
    };
    expect(() => messageKeyOf(ref, bot)).toThrow(/has no known author/);
    try {
      messageKeyOf(ref, bot);
    } catch (error) {
      expect(error).toMatchObject({ code: "E_MESSAGE_NOT_FOUND", hint: expect.stringMatching(/author/) });
    }
  });

  it("the bot's own group message is keyed fromMe with the bot's JID when the ref has no participant", () => {
    const ref = whatsappMessageRef(bot, { remoteJid: family.id, id: "3EB0CCCC", fromMe: true }, true);
    expect(messageKeyOf(ref, bot)).toEqual({ remoteJid: family.id, id: "3EB0CCCC", fromMe: true, participant: bot.pn });
  });

  it("a direct message needs no participant; a ref without data falls back to conversation and fromBot", () => {
    const ref: MessageRef = {
      channel: "whatsapp",
      accountId: "default",
      conversationId: "15551230001@s.whatsapp.net",
      messageId: "3EB0DDDD",
      fromBot: true,
    };
    expect(messageKeyOf(ref, bot)).toEqual({ remoteJid: "15551230001@s.whatsapp.net", id: "3EB0DDDD", fromMe: true });
    expect(addressOfRef(ref)).toEqual({ remoteJid: "15551230001@s.whatsapp.net", id: "3EB0DDDD", fromMe: true });
  });

  it("refs are plain JSON and survive a round trip", () => {
    const ref = whatsappMessageRef(bot, { remoteJid: family.id, id: "X", fromMe: false, participant: "1@lid" }, false);
    expect(JSON.parse(JSON.stringify(ref))).toEqual(ref);
  });
});
