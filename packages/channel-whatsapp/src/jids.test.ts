import { describe, expect, it } from "vitest";
import { botIdentityOf, chatJidOf, e164OfJid, ignoredChat, isBotJid, phoneDigits, userJidOf } from "./jids.js";

describe("JIDs", () => {
  it("the bot's identity from Baileys' `me`: device stripped, LID kept, pairing placeholder name dropped", () => {
    expect(
      botIdentityOf(
        { id: "15550001111:12@s.whatsapp.net", lid: "200000000000001:12@lid", name: "Chorus" },
        "whatsapp",
        "work",
      ),
    ).toEqual({
      channel: "whatsapp",
      accountId: "work",
      // The identity is the instance's RefScope: the bot's id is its phone-number JID.
      botId: "15550001111@s.whatsapp.net",
      pn: "15550001111@s.whatsapp.net",
      lid: "200000000000001@lid",
      name: "Chorus",
      e164: "+15550001111",
    });
    expect(botIdentityOf({ id: "15550001111@s.whatsapp.net", name: "~" }, "whatsapp", "default")).not.toHaveProperty(
      "name",
    );
    expect(botIdentityOf(undefined, "whatsapp", "default")).toBeUndefined();
  });

  it("E.164 only from phone-number JIDs", () => {
    expect(e164OfJid("15551230001:3@s.whatsapp.net")).toBe("+15551230001");
    expect(e164OfJid("15551230001@c.us")).toBe("+15551230001");
    expect(e164OfJid("100000000000001@lid")).toBeUndefined();
    expect(e164OfJid("120363025246125888@g.us")).toBeUndefined();
  });

  it("the bot is recognised by phone number and by LID, with or without device", () => {
    const who = { pn: "15550001111@s.whatsapp.net", lid: "200000000000001@lid" };
    expect(isBotJid("15550001111:4@s.whatsapp.net", who)).toBe(true);
    expect(isBotJid("200000000000001:4@lid", who)).toBe(true);
    expect(isBotJid("15551230001@s.whatsapp.net", who)).toBe(false);
    expect(isBotJid(undefined, who)).toBe(false);
  });

  it("chats to send to: JIDs, or phone numbers with country code", () => {
    expect(chatJidOf("120363025246125888@g.us")).toBe("120363025246125888@g.us");
    expect(chatJidOf("+1 (555) 123-0001")).toBe("15551230001@s.whatsapp.net");
    expect(chatJidOf("100000000000001@lid")).toBe("100000000000001@lid");
    expect(() => chatJidOf("status@broadcast")).toThrow(/is not a WhatsApp chat/);
    expect(() => chatJidOf("general")).toThrow(/is not a WhatsApp chat/);
  });

  it("people to mention: JIDs or numbers", () => {
    expect(userJidOf("+15551230002")).toBe("15551230002@s.whatsapp.net");
    expect(userJidOf("15551230002@s.whatsapp.net")).toBe("15551230002@s.whatsapp.net");
    expect(userJidOf("100000000000002@lid")).toBe("100000000000002@lid");
    expect(() => userJidOf("120363025246125888@g.us")).toThrow(/not a WhatsApp user/);
    expect(phoneDigits("12")).toBeUndefined();
  });

  it("status updates, broadcast lists and channels are never input", () => {
    expect(ignoredChat("status@broadcast")).toBe("status update");
    expect(ignoredChat("12345@broadcast")).toBe("broadcast list");
    expect(ignoredChat("1203@newsletter")).toBe("channel (newsletter)");
    expect(ignoredChat("120363025246125888@g.us")).toBeUndefined();
  });
});
