import type { GroupMetadata } from "@whiskeysockets/baileys";
import { describe, expect, it } from "vitest";
import * as fx from "../fixtures/messages.js";
import type { InboundContext } from "./message.js";
import { normalizeReactionUpdate, ReactionMemory } from "./reaction.js";

function context(group?: GroupMetadata, sent: string[] = []): InboundContext {
  return { who: fx.bot, group, pnOf: () => undefined, nameOf: () => undefined, sentByBot: (id) => sent.includes(id) };
}

function event(result: ReturnType<typeof normalizeReactionUpdate>) {
  if ("dropped" in result) throw new Error(`dropped: ${result.dropped}`);
  return result.event;
}

describe("normalizeReactionUpdate", () => {
  it("a reaction on the bot's message in a LID group: added, actor by phone number, target the bot's", () => {
    const result = event(normalizeReactionUpdate(fx.annLikesBotMessage, context(fx.family), new ReactionMemory()));
    expect(result).toEqual({
      type: "reaction",
      eventId: `wa:${fx.family.id}:3EB0REACT00000000001`,
      conversation: {
        id: fx.family.id,
        kind: "group",
        title: "Family",
        members: [
          { id: fx.ann.pn, e164: "+15551230001" },
          { id: fx.bob.pn, e164: "+15551230002" },
          { id: fx.bot.pn, name: "Chorus", e164: "+15550001111", isBot: true },
        ],
      },
      target: {
        channel: "whatsapp",
        accountId: "default",
        conversationId: fx.family.id,
        messageId: "3EB0B07000000000000A",
        fromBot: true,
        data: { remoteJid: fx.family.id, fromMe: true, participant: fx.bot.lid },
      },
      emoji: "👍",
      action: "added",
      actor: { id: fx.ann.pn, e164: "+15551230001" },
      timestamp: 1_767_225_610_000,
    });
  });

  it("a removal names the emoji that person held, when it was seen", () => {
    const memory = new ReactionMemory();
    normalizeReactionUpdate(fx.annLikesBotMessage, context(fx.family), memory);
    const removed = event(normalizeReactionUpdate(fx.annUnlikesBotMessage, context(fx.family), memory));
    expect(removed).toMatchObject({ emoji: "👍", action: "removed", actor: { id: fx.ann.pn } });
    // Seen nothing before (a restart in between): WhatsApp does not say, so the emoji is empty.
    const unknown = event(normalizeReactionUpdate(fx.annUnlikesBotMessage, context(fx.family), new ReactionMemory()));
    expect(unknown).toMatchObject({ emoji: "", action: "removed" });
  });

  it("a reaction delivered after a newer one of the same person is dropped, not applied over it", () => {
    const memory = new ReactionMemory();
    // Ann added, then removed; Baileys handed the removal over first.
    expect(event(normalizeReactionUpdate(fx.annUnlikesBotMessage, context(fx.family), memory)).action).toBe("removed");
    expect(normalizeReactionUpdate(fx.annLikesBotMessage, context(fx.family), memory)).toEqual({
      dropped: "older than a reaction of the same person already seen (delivered out of order)",
    });
  });

  it("a reaction on someone else's message in a phone-number group keeps that author in the target", () => {
    const result = event(normalizeReactionUpdate(fx.bobLovesAnnMessage, context(fx.bookClub), new ReactionMemory()));
    expect(result.target).toMatchObject({
      fromBot: false,
      data: { remoteJid: fx.bookClub.id, fromMe: false, participant: fx.ann.pn },
    });
    expect(result.actor).toEqual({ id: fx.bob.pn, e164: "+15551230002" });
    expect(result.emoji).toBe("❤️");
  });

  it("drops the bot's own reactions, by fromMe and by the bot's LID", () => {
    expect(normalizeReactionUpdate(fx.ownReactionEcho, context(fx.family), new ReactionMemory())).toEqual({
      dropped: "the bot's own reaction",
    });
    expect(normalizeReactionUpdate(fx.ownReactionByLid, context(fx.family), new ReactionMemory())).toEqual({
      dropped: "the bot's own reaction",
    });
  });

  it("a reaction in a direct chat: the reactor is the chat's person", () => {
    const result = event(normalizeReactionUpdate(fx.directReaction, context(), new ReactionMemory()));
    expect(result).toMatchObject({
      conversation: { id: fx.ann.pn, kind: "direct" },
      actor: { id: fx.ann.pn, e164: "+15551230001" },
      target: { messageId: "3EB0B07000000000000B", fromBot: true, data: { remoteJid: fx.ann.pn, fromMe: true } },
      emoji: "😂",
      action: "added",
    });
  });

  it("a target the bot sent counts as the bot's even when the key says otherwise", () => {
    const update = structuredClone(fx.bobLovesAnnMessage);
    const result = event(
      normalizeReactionUpdate(update, context(fx.bookClub, ["3EB0A1B2C3D4E5F60001"]), new ReactionMemory()),
    );
    expect(result.target.fromBot).toBe(true);
  });
});
