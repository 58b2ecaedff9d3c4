import { type MessageRef, performReaction } from "@chorus/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ANN, BOB, BOT, pnJid } from "../fixtures/wire-messages.js";
import {
  messageEvent,
  openWireSession,
  PATIENCE,
  reactionEvents,
  WIRE_TEST_TIMEOUT,
  type WireSession,
} from "../fixtures/wire-session.js";
import { whatsappChannel } from "../index.js";

// DESIGN §2.2, row WhatsApp (clearAll, singleSlot), through core's rules as the gateway applies
// them, asserted on the reactions the fake holds and the keys the bot sent.
let s: WireSession;
beforeEach(async () => {
  s = await openWireSession();
}, WIRE_TEST_TIMEOUT);
afterEach(async () => {
  const { problems } = s.fake;
  await s.close();
  expect(problems).toEqual([]);
});

const react = (ref: MessageRef, call: Record<string, unknown>) =>
  performReaction({ plugin: whatsappChannel, instance: s.channel.instance, ref, call });

/** Ann's message in the LID group "Team", as the plugin received it. */
async function annInTeam(text = "dinner at 7?"): Promise<MessageRef> {
  const key = s.fake.personSends({ from: ANN.phone, chat: s.team.id, text });
  return (await messageEvent(s.channel, key.id)).ref;
}

/** Bob writes to the bot; once that event is out, everything delivered before it was handled. */
async function barrier(): Promise<void> {
  const key = s.fake.personSends({ from: BOB.phone, text: "barrier" });
  await messageEvent(s.channel, key.id);
}

/** The target keys and texts of the reactions the bot sent. */
const sent = () => s.fake.botReactionsSent().map(({ key, text }) => ({ key, text }));

describe("reacting over the wire", () => {
  it(
    "add: the group key names the person as participant; a direct chat's key has none",
    async () => {
      const inGroup = await annInTeam();
      expect(await react(inGroup, { emoji: "thumbsup" })).toEqual({
        ok: true,
        action: "react",
        op: "add",
        emoji: "👍",
      });
      expect(s.fake.reactionsOn(s.team.id, inGroup.messageId)).toEqual({ [pnJid(BOT)]: "👍" });

      const direct = s.fake.personSends({ from: BOB.phone, text: "hi" });
      const inDirect = (await messageEvent(s.channel, direct.id)).ref;
      await react(inDirect, { emoji: "❤️" });
      expect(s.fake.botReaction(s.bob.jid, direct.id)).toBe("❤️");
      expect(sent()).toEqual([
        {
          key: { remoteJid: s.team.id, id: inGroup.messageId, fromMe: false, participant: s.ann.lidJid },
          text: "👍",
        },
        { key: { remoteJid: s.bob.jid, id: direct.id, fromMe: false }, text: "❤️" },
      ]);
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "one slot: a new emoji replaces the old one, other people's reactions stay",
    async () => {
      const ref = await annInTeam();
      s.fake.personReacts({ from: BOB.phone, chat: s.team.id, target: ref.messageId, emoji: "😂" });
      await react(ref, { emoji: "👍" });
      expect(await react(ref, { emoji: "❤️" })).toEqual({
        ok: true,
        action: "react",
        op: "add",
        emoji: "❤️",
        removed: ["👍"],
      });
      expect(s.fake.reactionsOn(s.team.id, ref.messageId)).toEqual({ [pnJid(BOT)]: "❤️", [s.bob.jid]: "😂" });
      expect(sent().map(({ text }) => text)).toEqual(["👍", "❤️"]);
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    'emoji "" and clearAll empty the slot with an empty reaction',
    async () => {
      const first = await annInTeam("first");
      const second = await annInTeam("second");
      await react(first, { emoji: "👍" });
      await react(second, { emoji: "🎉" });
      expect(await react(first, { emoji: "" })).toEqual({ ok: true, action: "react", op: "clear", removed: ["👍"] });
      expect(await react(second, { clearAll: true })).toMatchObject({ op: "clear", removed: ["🎉"] });
      expect(s.fake.botReaction(s.team.id, first.messageId)).toBeUndefined();
      expect(s.fake.botReaction(s.team.id, second.messageId)).toBeUndefined();
      expect(sent().map(({ key, text }) => [key.id, text])).toEqual([
        [first.messageId, "👍"],
        [second.messageId, "🎉"],
        [first.messageId, ""],
        [second.messageId, ""],
      ]);
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "remove: true sends an empty reaction; without an emoji it is E_EMOJI_REQUIRED and sends nothing",
    async () => {
      const ref = await annInTeam();
      await react(ref, { emoji: "👍" });
      await expect(react(ref, { remove: true })).rejects.toMatchObject({ code: "E_EMOJI_REQUIRED" });
      await expect(react(ref, { emoji: "", remove: true })).rejects.toMatchObject({ code: "E_EMOJI_REQUIRED" });
      expect(sent()).toHaveLength(1);
      expect(await react(ref, { emoji: "👍", remove: true })).toMatchObject({ ok: true, removed: ["👍"] });
      expect(s.fake.botReaction(s.team.id, ref.messageId)).toBeUndefined();
      expect(sent().map(({ text }) => text)).toEqual(["👍", ""]);
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "a group message the plugin never saw is E_MESSAGE_NOT_FOUND, and nothing is sent",
    async () => {
      // Ann's message exists on WhatsApp, but this instance never received it: its author is unknown.
      const unseen = "3EB0C0FFEE0000000001";
      await expect(s.channel.instance.resolveMessageRef({ id: s.team.id }, unseen)).rejects.toMatchObject({
        code: "E_MESSAGE_NOT_FOUND",
      });
      const withoutAuthor: MessageRef = {
        channel: "whatsapp",
        accountId: "default",
        conversationId: s.team.id,
        messageId: unseen,
        fromBot: false,
        data: { remoteJid: s.team.id, fromMe: false },
      };
      await expect(react(withoutAuthor, { emoji: "👍" })).rejects.toMatchObject({ code: "E_MESSAGE_NOT_FOUND" });
      expect(s.fake.stanzas({ tag: "message" })).toEqual([]);
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "something that is not an emoji is E_UNSUPPORTED_EMOJI naming the quick reactions, and nothing is sent",
    async () => {
      const ref = await annInTeam();
      await expect(react(ref, { emoji: "hello" })).rejects.toMatchObject({
        code: "E_UNSUPPORTED_EMOJI",
        hint: expect.stringContaining("👍"),
      });
      await expect(react(ref, { emoji: "👍👍" })).rejects.toMatchObject({ code: "E_UNSUPPORTED_EMOJI" });
      expect(sent()).toEqual([]);
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "idempotent: adding what is held (in any spelling) or clearing an empty slot sends nothing",
    async () => {
      const ref = await annInTeam();
      expect(await react(ref, { emoji: "" })).toEqual({ ok: true, action: "react", op: "clear", removed: [] });
      expect(await react(ref, { emoji: "👍", remove: true })).toMatchObject({ ok: true, removed: [] });
      await react(ref, { emoji: "👍" });
      expect(await react(ref, { emoji: ":thumbsup:" })).toEqual({ ok: true, action: "react", op: "add", emoji: "👍" });
      await react(ref, { emoji: "❤" });
      expect(await react(ref, { emoji: "❤️" })).toMatchObject({ op: "add", emoji: "❤️" });
      expect(sent().map(({ text }) => text)).toEqual(["👍", "❤️"]);
      expect(s.fake.botReaction(s.team.id, ref.messageId)).toBe("❤️");
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "the bot's own group message is keyed with fromMe and the bot as participant",
    async () => {
      const own = await s.channel.instance.send({ id: s.team.id }, { text: "vote with a reaction" });
      await react(own, { emoji: "✅" });
      expect(s.fake.botReaction(s.team.id, own.messageId)).toBe("✅");
      expect(sent()).toEqual([
        { key: { remoteJid: s.team.id, id: own.messageId, fromMe: true, participant: pnJid(BOT) }, text: "✅" },
      ]);
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "what the bot holds survives a restart, so clearing after it still clears",
    async () => {
      const ref = await annInTeam();
      await react(ref, { emoji: "👍" });
      const restarted = await s.restart();
      expect(restarted.instance.status().state).toBe("running");
      // As the gateway does after a restart: the ref again from the message id the agent saw.
      const again = await restarted.instance.resolveMessageRef({ id: s.team.id }, ref.messageId);
      expect(again).toEqual(ref);
      expect(
        await performReaction({
          plugin: whatsappChannel,
          instance: restarted.instance,
          ref: again,
          call: { emoji: "" },
        }),
      ).toEqual({ ok: true, action: "react", op: "clear", removed: ["👍"] });
      expect(s.fake.botReaction(s.team.id, ref.messageId)).toBeUndefined();
      expect(sent().map(({ key, text }) => [key.participant, text])).toEqual([
        [s.ann.lidJid, "👍"],
        [s.ann.lidJid, ""],
      ]);
    },
    WIRE_TEST_TIMEOUT,
  );
});

describe("reactions people make, over the wire", () => {
  it(
    "added and removed on the bot's message become reaction events; the account's own are dropped",
    async () => {
      await annInTeam("hello");
      const own = await s.channel.instance.send({ id: s.team.id }, { text: "Pasta at 7." });
      s.fake.personReacts({ from: ANN.phone, chat: s.team.id, target: own.messageId, emoji: "👍" });
      s.fake.ownerReacts({ chat: s.team.id, target: own.messageId, emoji: "🔥" });
      await react(own, { emoji: "✅" });
      s.fake.personReacts({ from: ANN.phone, chat: s.team.id, target: own.messageId, emoji: "" });
      const removed = await s.channel.waitForEvent(
        (event) => event.type === "reaction" && event.action === "removed",
        PATIENCE.timeoutMs,
      );
      const target = {
        channel: "whatsapp",
        accountId: "default",
        conversationId: s.team.id,
        messageId: own.messageId,
        fromBot: true,
        data: { remoteJid: s.team.id, fromMe: true, participant: s.fake.bot.lidJid },
      };
      const ann = { id: s.ann.jid, name: ANN.name, e164: `+${ANN.phone}` };
      expect(reactionEvents(s.channel)).toEqual([
        {
          type: "reaction",
          eventId: expect.stringMatching(new RegExp(`^wa:${s.team.id}:3EB0`)),
          conversation: expect.objectContaining({ id: s.team.id, kind: "group", title: "Team" }),
          target,
          emoji: "👍",
          action: "added",
          actor: ann,
          timestamp: expect.any(Number),
        },
        removed,
      ]);
      expect(removed).toMatchObject({ target, emoji: "👍", action: "removed", actor: ann });
    },
    WIRE_TEST_TIMEOUT,
  );

  it(
    "a reaction delivered after a newer one of the same person does not undo it",
    async () => {
      const own = await s.channel.instance.send({ id: s.team.id }, { text: "Pasta at 7." });
      const key = { remoteJid: s.team.id, id: own.messageId, fromMe: false, participant: s.fake.bot.lidJid };
      const at = Date.now();
      const reaction = (text: string, senderTimestampMs: number) => ({
        reactionMessage: { key, text, senderTimestampMs },
      });
      // Ann added 👍, then took it back; the removal reaches the bot first.
      s.fake.personSends({ from: ANN.phone, chat: s.team.id, message: reaction("", at + 1_000) });
      const late = s.fake.personSends({ from: ANN.phone, chat: s.team.id, message: reaction("👍", at) });
      await barrier();
      expect(reactionEvents(s.channel).map((event) => [event.action, event.emoji])).toEqual([["removed", ""]]);
      expect(reactionEvents(s.channel).map((event) => event.eventId)).not.toContain(`wa:${s.team.id}:${late.id}`);
    },
    WIRE_TEST_TIMEOUT,
  );
});
