import { readFileSync } from "node:fs";
import type { RefScope } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { groupIdOf, type InboundContext, normalizeReceive, parseReceive } from "./inbound.js";
import type { SignalGroup } from "./wire.js";

/** A `receive` event as signal-cli writes it (`src/fixtures/`): what the plugin must read. */
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), "utf8");

const BOT = { number: "+15550001000", uuid: "b1f4d7a2-6c3e-4e8f-a1d9-5c7b2e0f8a64", name: "Chorus" };
const ANN = "3f0c2a1e-8d4b-4c6e-9a57-2b1d0e9f4c31";
const BOB = "6a2e9c14-0b7d-4f35-8e61-d3c5a8b2f907";
const GROUP = "kZ0Yq8pVH7m2sQ4tW9xE1rLcB6nJ3dF5aG8hK0uI2oM=";
const scope: RefScope = { channel: "signal", accountId: "default", botId: BOT.uuid };
const names = new Map([[BOB, "Bob"]]);
const team: SignalGroup = {
  id: GROUP,
  name: "Café crew",
  description: null,
  isMember: true,
  isBlocked: false,
  members: [
    { number: BOT.number, uuid: BOT.uuid, isAdmin: true },
    { number: "+15550002222", uuid: ANN, isAdmin: false },
    { number: null, uuid: BOB, isAdmin: false },
  ],
};
const ctx = (group?: SignalGroup): InboundContext => ({
  scope,
  bot: BOT,
  ...(group && { group }),
  nameOf: (id) => names.get(id),
});
const normalize = (name: string, group?: SignalGroup) => normalizeReceive(parseReceive(fixture(name)), ctx(group));
const ann = { id: ANN, name: "Ann Example", e164: "+15550002222" };

describe("normalizeReceive", () => {
  it("reads a group message that mentions the bot and someone without a shared number", () => {
    expect(groupIdOf(parseReceive(fixture("receive-group-mention")))).toBe(GROUP);
    expect(normalize("receive-group-mention", team)).toEqual({
      event: {
        type: "message",
        eventId: `${ANN}:1767261300123`,
        conversation: {
          id: GROUP,
          kind: "group",
          title: "Café crew",
          members: [
            { id: BOT.uuid, name: "Chorus", e164: BOT.number, isBot: true },
            { id: ANN, e164: "+15550002222" },
            { id: BOB, name: "Bob" },
          ],
        },
        sender: ann,
        text: "@Chorus can you ask @Bob about the 🚀 launch?",
        mentions: { bot: true, others: [BOB] },
        ref: {
          channel: "signal",
          accountId: "default",
          conversationId: GROUP,
          messageId: "1767261300123",
          fromBot: false,
          data: { author: ANN, timestamp: 1767261300123 },
        },
        timestamp: 1767261300123,
      },
    });
  });

  it("takes the group's title from the envelope when listGroups could not be asked", () => {
    const out = normalize("receive-group-mention");
    expect("event" in out && out.event.conversation).toEqual({ id: GROUP, kind: "group", title: "Café crew" });
  });

  it("reads a direct reply quoting the bot's message", () => {
    expect(normalize("receive-direct-reply")).toEqual({
      event: expect.objectContaining({
        eventId: `${ANN}:1767261389950`,
        conversation: { id: ANN, kind: "direct", title: "Ann Example" },
        sender: ann,
        text: "yes please",
        mentions: { bot: false, others: [] },
        replyTo: { messageId: "1767261370001", fromBot: true, text: "Shall I book it?", senderId: BOT.uuid },
      }),
    });
  });

  it("reads a reaction on the bot's message by someone whose number is hidden", () => {
    expect(normalize("receive-reaction", team)).toEqual({
      event: {
        type: "reaction",
        eventId: `${BOB}:1767261422640`,
        conversation: expect.objectContaining({ id: GROUP, kind: "group" }),
        target: {
          channel: "signal",
          accountId: "default",
          conversationId: GROUP,
          messageId: "1767261370001",
          fromBot: true,
          data: { author: BOT.number, timestamp: 1767261370001 },
        },
        emoji: "🎉",
        action: "added",
        actor: { id: BOB, name: "Bob" },
        timestamp: 1767261422640,
      },
    });
    const removed = JSON.parse(fixture("receive-reaction"));
    removed.envelope.dataMessage.reaction.isRemove = true;
    expect(normalizeReceive(parseReceive(JSON.stringify(removed)), ctx())).toMatchObject({
      event: { action: "removed" },
    });
  });

  it("takes the owner's message from the phone into a group as the owner's (the bot's number)", () => {
    expect(normalize("receive-sync-group", team)).toEqual({
      event: expect.objectContaining({
        eventId: `${BOT.uuid}:1767261500777`,
        conversation: expect.objectContaining({ id: GROUP, kind: "group" }),
        sender: { id: BOT.uuid, name: "Chorus", e164: BOT.number },
        text: "/activation always",
        ref: expect.objectContaining({ fromBot: false, data: { author: BOT.number, timestamp: 1767261500777 } }),
      }),
    });
  });

  it("takes Note to Self as the owner's direct chat, and drops the owner's messages to other people", () => {
    const toSelf = JSON.parse(fixture("receive-sync-group"));
    delete toSelf.envelope.syncMessage.sentMessage.groupInfo;
    Object.assign(toSelf.envelope.syncMessage.sentMessage, {
      destination: BOT.number,
      destinationNumber: BOT.number,
      destinationUuid: BOT.uuid,
    });
    expect(normalizeReceive(parseReceive(JSON.stringify(toSelf)), ctx())).toMatchObject({
      event: { conversation: { id: BOT.uuid, kind: "direct", title: "Note to Self" }, sender: { id: BOT.uuid } },
    });
    // signal-cli's documented sync example is an account writing to itself …
    const documented = { number: "+33123456789", uuid: "uuid" };
    expect(normalizeReceive(parseReceive(fixture("receive-sync-direct")), { ...ctx(), bot: documented })).toEqual({
      event: expect.objectContaining({ conversation: expect.objectContaining({ title: "Note to Self" }) }),
    });
    // … which, for another account, is its owner writing to someone else.
    expect(normalize("receive-sync-direct")).toEqual({ ignored: "the owner's own message to someone else" });
  });

  it("reads the daemon's documented example (older signal-cli, empty lists, no server timestamps)", () => {
    expect(normalize("receive-docs-example")).toMatchObject({
      event: {
        conversation: { id: "uuid", kind: "direct", title: "name" },
        sender: { id: "uuid", name: "name", e164: "+33123456789" },
        text: "foobar",
        mentions: { bot: false, others: [] },
      },
    });
  });

  it("ignores typing, receipts, the bot's own messages and envelopes signal-cli could not decrypt", () => {
    expect(normalize("receive-typing")).toEqual({ ignored: "not a message (typingMessage)" });
    expect(normalize("receive-receipt")).toEqual({ ignored: "not a message (receiptMessage)" });
    expect(normalize("receive-untrusted")).toEqual({ ignored: "not a message (empty envelope)" });
    expect(parseReceive(fixture("receive-untrusted")).exception?.type).toBe("UntrustedIdentityException");
    const echo = JSON.parse(fixture("receive-direct-reply"));
    Object.assign(echo.envelope, { sourceUuid: BOT.uuid, sourceNumber: BOT.number });
    expect(normalizeReceive(parseReceive(JSON.stringify(echo)), ctx())).toEqual({ ignored: "the bot's own message" });
  });

  it("a group message with a photo and a PDF: its text, and both files as attachments the daemon serves by id", () => {
    expect(normalize("receive-attachments", team)).toMatchObject({
      event: {
        type: "message",
        conversation: { id: GROUP, kind: "group" },
        text: "Menu for tonight, and the bill",
        attachments: [
          {
            kind: "image",
            mime: "image/jpeg",
            size: 183244,
            width: 1536,
            height: 2048,
            source: { id: "Gx7qLm2vRb9TnW4pZc1K.jpg", groupId: GROUP },
          },
          {
            kind: "file",
            mime: "application/pdf",
            size: 48211,
            filename: "bill.pdf",
            source: { id: "Ll0_Sz0fjsnRUu_CKbhc.pdf", groupId: GROUP },
          },
        ],
      },
    });
    const [photo] = (normalize("receive-attachments", team) as unknown as { event: { attachments: object[] } }).event
      .attachments;
    // Only what signal-cli states: the photo has no name, so none is made up.
    expect(photo).not.toHaveProperty("filename");
  });

  it("a voice note: `voice` where the daemon flags it (isVoiceNote), `audio` where it drops the flag (0.14.6)", () => {
    expect(normalize("receive-voice-note")).toEqual({
      event: expect.objectContaining({
        conversation: { id: ANN, kind: "direct", title: "Ann Example" },
        text: "",
        attachments: [
          {
            kind: "voice",
            mime: "audio/aac",
            size: 21876,
            source: { id: "pQ3w8ZrT1kYc6VnB0sLx.aac", recipient: ANN },
          },
        ],
      }),
    });
    const unflagged = JSON.parse(fixture("receive-voice-note"));
    delete unflagged.envelope.dataMessage.attachments[0].isVoiceNote;
    expect(normalizeReceive(parseReceive(JSON.stringify(unflagged)), ctx())).toMatchObject({
      event: { attachments: [{ kind: "audio", mime: "audio/aac" }] },
    });
  });

  it("a sticker alone is a message with one sticker attachment, found by pack and number", () => {
    expect(normalize("receive-sticker")).toMatchObject({
      event: {
        text: "",
        attachments: [
          { kind: "sticker", source: { sticker: { packId: "9acc9e8aba563d26a4994e69263e3b25", stickerId: 4 } } },
        ],
      },
    });
  });

  it("a long body sent as text/x-signal-plain is the text, not an attachment; a caption on a file is the text when the body is empty", () => {
    const long = JSON.parse(fixture("receive-attachments"));
    long.envelope.dataMessage.message = "a very long message";
    long.envelope.dataMessage.attachments = [
      { ...long.envelope.dataMessage.attachments[1], contentType: "text/x-signal-plain", filename: null },
    ];
    expect(normalizeReceive(parseReceive(JSON.stringify(long)), ctx(team))).toMatchObject({
      event: { text: "a very long message" },
    });
    expect(normalizeReceive(parseReceive(JSON.stringify(long)), ctx(team))).not.toHaveProperty("event.attachments");
    const captioned = JSON.parse(fixture("receive-attachments"));
    captioned.envelope.dataMessage.message = null;
    captioned.envelope.dataMessage.attachments[0].caption = "tonight";
    expect(normalizeReceive(parseReceive(JSON.stringify(captioned)), ctx(team))).toMatchObject({
      event: { text: "tonight", attachments: [{ kind: "image" }, { kind: "file" }] },
    });
  });

  it("the owner's file from the phone into a group is input, addressed by the group", () => {
    const sync = JSON.parse(fixture("receive-sync-group"));
    sync.envelope.syncMessage.sentMessage.attachments = [
      JSON.parse(fixture("receive-attachments")).envelope.dataMessage.attachments[1],
    ];
    expect(normalizeReceive(parseReceive(JSON.stringify(sync)), ctx(team))).toMatchObject({
      event: { attachments: [{ kind: "file", filename: "bill.pdf", source: { groupId: GROUP } }] },
    });
  });

  it("ignores deletions, group updates and an empty message", () => {
    const update = JSON.parse(fixture("receive-group-mention"));
    update.envelope.dataMessage.groupInfo.type = "UPDATE";
    expect(normalizeReceive(parseReceive(JSON.stringify(update)), ctx())).toEqual({ ignored: "a group update" });
    const empty = JSON.parse(fixture("receive-direct-reply"));
    Object.assign(empty.envelope.dataMessage, { message: null, quote: undefined });
    expect(normalizeReceive(parseReceive(JSON.stringify(empty)), ctx())).toEqual({
      ignored: "nothing said or attached (an expiration update?)",
    });
  });

  it("refuses what it cannot read with E_INVALID_INPUT naming each wrong field", () => {
    expect(() => parseReceive('{"envelope":{"timestamp":"soon","dataMessage":{"message":42}}}')).toThrow(
      expect.objectContaining({
        code: "E_INVALID_INPUT",
        message: expect.stringMatching(/envelope\.timestamp: .*number.*envelope\.dataMessage\.timestamp/),
      }),
    );
    expect(() => parseReceive("{ not json")).toThrow(/unreadable receive event: not JSON/);
  });
});
