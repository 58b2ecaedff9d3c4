import type { GroupMetadata } from "@whiskeysockets/baileys";
import { describe, expect, it } from "vitest";
import * as fx from "../fixtures/messages.js";
import { type InboundContext, normalizeMessage } from "./message.js";
import { People } from "./people.js";

function context(options: { group?: GroupMetadata; sent?: string[]; people?: People } = {}): InboundContext {
  const people = options.people ?? new People();
  return {
    who: fx.bot,
    group: options.group,
    pnOf: (lid) => people.pnOf(lid),
    nameOf: (jid) => people.nameOf(jid),
    sentByBot: (id) => (options.sent ?? []).includes(id),
  };
}

function event(result: ReturnType<typeof normalizeMessage>) {
  if (!("event" in result)) throw new Error(`no event: ${JSON.stringify(result)}`);
  return result.event;
}

describe("normalizeMessage: group mentions", () => {
  it("by phone number: the bot is mentioned, Bob is one of the others, placeholders become names", () => {
    const people = new People();
    people.learnName([fx.bob.pn], fx.bob.name);
    const result = event(normalizeMessage(fx.groupMentionByPn, "notify", context({ group: fx.bookClub, people })));
    expect(result).toEqual({
      type: "message",
      eventId: `wa:${fx.bookClub.id}:3EB0A1B2C3D4E5F60001`,
      conversation: {
        id: fx.bookClub.id,
        kind: "group",
        title: "Book club",
        members: [
          { id: fx.ann.pn, e164: "+15551230001" },
          { id: fx.bob.pn, name: "Bob", e164: "+15551230002" },
          { id: fx.bot.pn, name: "Chorus", e164: "+15550001111", isBot: true },
        ],
      },
      sender: { id: fx.ann.pn, name: "Ann Lee", e164: "+15551230001" },
      text: "@Chorus what's for dinner? cc @Bob",
      mentions: { bot: true, others: [fx.bob.pn] },
      ref: {
        channel: "whatsapp",
        accountId: "default",
        conversationId: fx.bookClub.id,
        messageId: "3EB0A1B2C3D4E5F60001",
        fromBot: false,
        data: { remoteJid: fx.bookClub.id, fromMe: false, participant: fx.ann.pn },
      },
      timestamp: 1_767_225_600_000,
    });
  });

  it("by LID: the bot's LID counts as the bot, the sender is named by phone number, the key keeps the LID", () => {
    const result = event(normalizeMessage(fx.groupMentionByLid, "notify", context({ group: fx.family })));
    expect(result.mentions).toEqual({ bot: true, others: [] });
    expect(result.text).toBe("@Chorus are you there?");
    expect(result.sender).toEqual({ id: fx.bob.pn, name: "Bob", e164: "+15551230002" });
    expect(result.ref.data).toEqual({ remoteJid: fx.family.id, fromMe: false, participant: fx.bob.lid });
    expect(result.conversation.members?.map((m: { id: string }) => m.id)).toEqual([fx.ann.pn, fx.bob.pn, fx.bot.pn]);
    expect(result.timestamp).toBe(1_767_225_660_000);
  });

  it("a mention of someone else only: the bot is not mentioned and the other is listed by phone number", () => {
    const message = structuredClone(fx.groupMentionByLid);
    const text = message.message?.extendedTextMessage;
    if (!text?.contextInfo) throw new Error("fixture changed");
    text.text = "@100000000000001 can you bring dessert?";
    text.contextInfo.mentionedJid = [fx.ann.lid];
    const result = event(normalizeMessage(message, "notify", context({ group: fx.family })));
    expect(result.mentions).toEqual({ bot: false, others: [fx.ann.pn] });
    // No name known for Ann: the opaque LID in the text becomes her phone number.
    expect(result.text).toBe("@15551230001 can you bring dessert?");
  });

  it("without group metadata (lookup failed) the message still arrives, without title and members", () => {
    const result = event(normalizeMessage(fx.groupMentionByLid, "notify", context()));
    expect(result.conversation).toEqual({ id: fx.family.id, kind: "group" });
    // The key's participantAlt still gives the phone number.
    expect(result.sender).toMatchObject({ id: fx.bob.pn, e164: "+15551230002" });
  });
});

describe("normalizeMessage: wrappers are unwrapped before text and mentions are read", () => {
  it("ephemeral (disappearing messages)", () => {
    const result = event(normalizeMessage(fx.ephemeralMention, "notify", context({ group: fx.family })));
    expect(result.text).toBe("@Chorus this will vanish");
    expect(result.mentions.bot).toBe(true);
  });

  it("view-once image with a caption: the photo is an attachment, its caption the text", () => {
    const result = event(normalizeMessage(fx.viewOnceMention, "notify", context({ group: fx.family })));
    expect(result.text).toBe("look @Chorus");
    expect(result.attachments).toEqual([{ kind: "image", mime: "image/jpeg" }]);
    expect(result.mentions.bot).toBe(true);
  });

  it("document with caption: the document is an attachment with its name, the caption the text", () => {
    const result = event(normalizeMessage(fx.documentWithCaption, "notify", context({ group: fx.bookClub })));
    expect(result.text).toBe("menu for @Chorus");
    expect(result.attachments).toEqual([{ kind: "file", mime: "application/pdf", filename: "menu.pdf" }]);
    expect(result.mentions).toEqual({ bot: true, others: [] });
    expect(result.sender).toEqual({ id: fx.bob.pn, name: "Bob", e164: "+15551230002" });
  });
});

describe("normalizeMessage: replies", () => {
  it("a reply quoting the bot (by LID) is a reply to the bot, with the quoted text", () => {
    const result = event(normalizeMessage(fx.replyToBot, "notify", context({ group: fx.family })));
    expect(result.replyTo).toEqual({
      messageId: "3EB0B07000000000000A",
      fromBot: true,
      text: "Pasta at 7.",
      senderId: fx.bot.pn,
    });
    expect(result.mentions).toEqual({ bot: false, others: [] });
  });

  it("a reply to a message the bot sent counts as the bot's even when the quote names no author", () => {
    const message = structuredClone(fx.replyToBot);
    const info = message.message?.extendedTextMessage?.contextInfo;
    if (!info) throw new Error("fixture changed");
    info.participant = null;
    const result = event(
      normalizeMessage(message, "notify", context({ group: fx.family, sent: ["3EB0B07000000000000A"] })),
    );
    expect(result.replyTo).toEqual({ messageId: "3EB0B07000000000000A", fromBot: true, text: "Pasta at 7." });
  });
});

describe("normalizeMessage: the owner and the bot itself", () => {
  it("the owner typing in a group on the linked phone is input, sent as the bot's own number", () => {
    const result = event(normalizeMessage(fx.ownerInGroup, "notify", context({ group: fx.family })));
    expect(result.sender).toEqual({ id: fx.bot.pn, name: "Chorus", e164: "+15550001111" });
    expect(result.text).toBe("/activation always");
    expect(result.ref).toMatchObject({
      fromBot: false,
      data: { remoteJid: fx.family.id, fromMe: true, participant: fx.bot.lid },
    });
  });

  it("the owner's chat with themselves is input; their messages to other people are not", () => {
    const self = event(normalizeMessage(fx.ownerSelfChat, "notify", context()));
    expect(self.conversation).toEqual({ id: fx.bot.pn, kind: "direct" });
    expect(self.sender.e164).toBe("+15550001111");
    expect(normalizeMessage(fx.ownerToFriend, "notify", context())).toEqual({
      dropped: "the owner's own message to someone else",
    });
  });

  it("drops a message the bot sent, by its id", () => {
    expect(normalizeMessage(fx.groupMentionByLid, "notify", context({ sent: ["3EB0A1B2C3D4E5F60002"] }))).toEqual({
      dropped: "the bot's own message",
    });
  });
});

describe("normalizeMessage: what is not input", () => {
  it.each([
    ["a status update", fx.statusUpdate, "status update"],
    ["a channel post", fx.newsletterPost, "channel (newsletter)"],
    ["a reaction (it arrives as messages.reaction)", fx.reactionAsMessage, /^no text/],
    ["a deletion (protocol message)", fx.revoke, /^no text/],
  ])("%s", (_name, message, reason) => {
    const result = normalizeMessage(message, "notify", context());
    expect("dropped" in result).toBe(true);
    expect((result as { dropped: string }).dropped).toMatch(reason);
  });

  it("a message Baileys could not read is unreadable, with the reason (the listener warns)", () => {
    expect(normalizeMessage(fx.undecryptable, "notify", context({ group: fx.family }))).toEqual({
      unreadable: "No matching sessions found for message",
    });
  });

  it("a broadcast list", () => {
    const message = structuredClone(fx.directMessage);
    message.key = { ...message.key, remoteJid: "1234567890@broadcast" };
    expect(normalizeMessage(message, "notify", context())).toEqual({ dropped: "broadcast list" });
  });

  it("anything that is not live (history, the bot's own appends)", () => {
    expect(normalizeMessage(fx.directMessage, "append", context())).toEqual({ dropped: "not a live message (append)" });
  });
});

describe("normalizeMessage: messages delivered late (sent while the device was offline)", () => {
  // fx messages are stamped 2026-01-01T00:00:00Z.
  const sentAt = Date.UTC(2026, 0, 1);
  const since = (ms: number) => ({ ...context(), catchUpSince: ms });

  it("a person's message within the catch-up window is input", () => {
    const result = event(normalizeMessage(fx.directMessage, "append", since(sentAt - 60_000)));
    expect(result).toMatchObject({ text: "hi, are you free later?", ref: { messageId: fx.directMessage.key.id } });
  });

  it("an older one, or one the owner sent, stays history", () => {
    expect(normalizeMessage(fx.directMessage, "append", since(sentAt + 1))).toEqual({
      dropped: "not a live message (append)",
    });
    const own = structuredClone(fx.directMessage);
    own.key = { ...own.key, fromMe: true };
    expect(normalizeMessage(own, "append", since(sentAt - 60_000))).toEqual({ dropped: "not a live message (append)" });
  });
});

describe("normalizeMessage: direct chats", () => {
  it("a LID-addressed chat keeps the LID as conversation; the sender is named by phone number", () => {
    const result = event(normalizeMessage(fx.directMessage, "notify", context()));
    expect(result).toMatchObject({
      conversation: { id: fx.ann.lid, kind: "direct", title: "Ann Lee" },
      sender: { id: fx.ann.pn, name: "Ann Lee", e164: "+15551230001" },
      text: "hi, are you free later?",
      mentions: { bot: false, others: [] },
      ref: { conversationId: fx.ann.lid, data: { remoteJid: fx.ann.lid, fromMe: false } },
    });
    expect(result.ref.data).not.toHaveProperty("participant");
  });

  it("a LID sender with no alt is named by the mapping Baileys knows, else by the LID", () => {
    const message = structuredClone(fx.directMessage);
    message.key = { remoteJid: fx.ann.lid, id: "3EB0A1B2C3D4E5F6000F", fromMe: false };
    expect(event(normalizeMessage(message, "notify", context())).sender).toEqual({ id: fx.ann.lid, name: "Ann Lee" });
    const people = new People();
    people.learnMapping({ lid: fx.ann.lid, pn: fx.ann.pn });
    expect(event(normalizeMessage(message, "notify", context({ people }))).sender).toEqual({
      id: fx.ann.pn,
      name: "Ann Lee",
      e164: "+15551230001",
    });
  });

  it("a voice note without text is an attachment and an empty text", () => {
    const result = event(normalizeMessage(fx.voiceNote, "notify", context()));
    expect(result.text).toBe("");
    expect(result.attachments).toEqual([{ kind: "voice", mime: "audio/ogg; codecs=opus", durationMs: 4000 }]);
  });
});
