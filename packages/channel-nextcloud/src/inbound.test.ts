import { readdir } from "node:fs/promises";
import type { RunningChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as hooks from "./fixtures/talk-hooks.js";
import { FIXTURE_WEBHOOK_URL, type HookHarness, startHookHarness } from "./hook-harness.test-util.js";
import { IDENTITY_KEY } from "./identity.js";
import { botActorId } from "./signing.js";
import type { FakeTalk } from "./testing/index.js";

// The fixtures name the bot as Talk would for the URL it was installed with: bots/bot-<sha1(url)>.
const BOT_ID = botActorId(FIXTURE_WEBHOOK_URL);

let harness: HookHarness;
let fake: FakeTalk;
let running: RunningChannel;
let deliver: HookHarness["deliver"];

beforeEach(async () => {
  harness = await startHookHarness();
  ({ fake, running, deliver } = harness);
});

afterEach(() => harness.close());

describe("Create (chat messages)", () => {
  it("computes the bot's actor id from the installed URL, like Talk", () => {
    expect(BOT_ID).toBe("bots/bot-0da93cc240afce54e4913e0916c743b2ab694484");
    expect(running.instance.identity?.()).toEqual({ id: BOT_ID, name: "Chorus", isBot: true });
  });

  it("reads a Talk 21+ message (talkParticipantType a numeric string, PHP-escaped) and resolves its mentions", async () => {
    expect(hooks.groupTypedName).toContain('"talkParticipantType":"3"');
    expect(hooks.groupTypedName).toContain('"id":"users\\/ada-lovelace"');
    expect(await deliver(hooks.groupTypedName)).toBe(200);
    expect(running.events).toEqual([
      {
        type: "message",
        eventId: "create:n3xtc10ud:1568",
        conversation: { id: "n3xtc10ud", kind: "group", title: "Team Room" },
        sender: { id: "users/ada-lovelace", name: "Ada Lovelace" },
        text: "@Chorus what does @Bob Builder think? cc @Team Room",
        // @all (`call`) is nobody in particular; Bob is a platform mention; the bot was named.
        mentions: { bot: true, others: ["users/bob"] },
        ref: {
          channel: "nextcloud",
          accountId: "default",
          conversationId: "n3xtc10ud",
          messageId: "1568",
          fromBot: false,
        },
        timestamp: expect.any(Number),
      },
    ]);
    expect(running.logs.at("warn", true)).toEqual([]);
  });

  it("accepts talkParticipantType as a number too, and messages of Talk 17.1–20 that have none", async () => {
    const numeric = JSON.parse(hooks.groupTypedName) as { actor: { talkParticipantType: unknown } };
    numeric.actor.talkParticipantType = 3;
    expect(await deliver(numeric)).toBe(200);
    expect(await deliver(hooks.talk20Message)).toBe(200);
    expect(running.events.map((e) => e.type === "message" && e.text)).toEqual([
      "@Chorus what does @Bob Builder think? cc @Team Room",
      "hello from Talk 20",
    ]);
  });

  it("recognises a mention parameter naming the bot's actor, and files by name (an owner's message)", async () => {
    expect(await deliver(hooks.groupMention)).toBe(200);
    expect(running.events).toMatchObject([
      { text: "@Chorus ask @Bob Builder about the plan.pdf", mentions: { bot: true, others: ["users/bob"] } },
    ]);
  });

  it("reads a message with an attachment, which Talk 21–22 name with an empty object.name", async () => {
    expect(await deliver(hooks.attachment)).toBe(200);
    // The file alone is the message: no text, one attachment (see inbound-media.test.ts).
    expect(running.events).toMatchObject([
      {
        eventId: "create:n3xtc10ud:1573",
        text: "",
        attachments: [{ kind: "image", mime: "image/png", size: 1024, filename: "Zürich Q1.png" }],
      },
    ]);
  });

  it("states that only others were mentioned when the bot was not", async () => {
    const event = fake.userSends({
      token: "team",
      user: { id: "ada", name: "Ada" },
      message: "{mention-user1} lunch?",
      parameters: { "mention-user1": { type: "user", id: "bob", name: "Bob" } },
    });
    await deliver(event);
    expect(running.events).toMatchObject([{ text: "@Bob lunch?", mentions: { bot: false, others: ["users/bob"] } }]);
  });

  it("marks a reply to the bot's message in a one-to-one conversation", async () => {
    expect(await deliver(hooks.replyToBot)).toBe(200);
    expect(running.events).toMatchObject([
      {
        conversation: { id: "d1r3ct", kind: "direct" },
        text: "yes, book it / thanks ✅",
        mentions: { bot: false, others: [] },
        replyTo: { messageId: "1569", fromBot: true, senderId: BOT_ID, text: "Shall I book the room? 🗓️" },
      },
    ]);
    expect(running.events[0]?.conversation).not.toHaveProperty("title");
  });

  it("drops the bot's own echo and system messages, and says why at debug level", async () => {
    expect(await deliver(hooks.ownEcho)).toBe(200);
    expect(await deliver(hooks.systemMessage)).toBe(200);
    expect(running.events).toEqual([]);
    expect(running.logs.at("debug").map((r) => r.message)).toEqual([
      "nextcloud: ignored the bot's own message",
      "nextcloud: ignored a system message (call_started)",
    ]);
  });

  it("passes on a message whose content is not Talk's JSON as sent, with a warning naming object.content", async () => {
    const odd = JSON.parse(hooks.talk20Message) as { object: { content: string } };
    odd.object.content = "plain words";
    expect(await deliver(odd)).toBe(200);
    expect(running.events).toMatchObject([{ text: "plain words" }]);
    expect(running.logs.at("warn").map((r) => r.message)).toEqual([
      "nextcloud: read a message only in part (object.content: not JSON); its text is passed on as sent",
    ]);
  });

  it("emits a message Talk fires again (same body, a new random) once: the same eventId", async () => {
    expect(await deliver(hooks.groupTypedName)).toBe(200);
    expect((await fake.redeliverLast()).status).toBe(200);
    expect(running.events).toHaveLength(1);
    expect(running.duplicates.map((e) => e.eventId)).toEqual(["create:n3xtc10ud:1568"]);
  });
});

describe("Like / Undo (reactions)", () => {
  it("emits added and removed reaction events", async () => {
    await deliver(hooks.like);
    await deliver(hooks.undo);
    expect(running.events).toMatchObject([
      {
        type: "reaction",
        emoji: "😆",
        action: "added",
        actor: { id: "users/ada-lovelace", name: "Ada Lovelace" },
        target: { conversationId: "n3xtc10ud", messageId: "1567" },
        conversation: { id: "n3xtc10ud", kind: "group" },
      },
      { type: "reaction", emoji: "😆", action: "removed" },
    ]);
    // Talk does not say who wrote the message reacted to.
    expect(running.events[0]).not.toHaveProperty("target.fromBot");
  });

  it("gives a redelivered reaction its first eventId, and a reaction added again after an undo a new one", async () => {
    await deliver(hooks.like);
    await fake.redeliverLast();
    await deliver(hooks.undo);
    await fake.redeliverLast();
    await deliver(hooks.like);
    expect(running.events.map((e) => (e.type === "reaction" ? e.action : e.type))).toEqual([
      "added",
      "removed",
      "added",
    ]);
    expect(running.duplicates).toHaveLength(2);
    expect(new Set(running.events.map((e) => e.eventId)).size).toBe(3);
  });

  it("keeps reaction event ids across a restart, so a redelivery after it is still one event", async () => {
    await deliver(hooks.like);
    await running.restart();
    await fake.redeliverLast();
    expect(running.events).toHaveLength(1);
    expect(running.duplicates).toHaveLength(1);
  });
});

describe("Join / Leave", () => {
  it("learns the bot's actor id from a Join, keeps it in the store, and then drops that actor's echoes", async () => {
    expect(await deliver(hooks.join)).toBe(200);
    const learned = "bots/bot-a78f46c5c203141b247554e180e1aa3553d282c6";
    expect(running.instance.identity?.()).toMatchObject({ id: learned, name: "Chorus" });
    expect(await running.store.get(IDENTITY_KEY)).toEqual({ botId: learned, name: "Chorus" });
    const echo = JSON.parse(hooks.ownEcho) as { actor: { id: string } };
    echo.actor.id = learned;
    await deliver(echo);
    expect(running.events).toEqual([]);

    await running.restart();
    expect(running.instance.identity?.()?.id).toBe(learned);
    expect(await deliver(hooks.leave)).toBe(200);
  });

  it("keeps one consistent identity when two Join hooks arrive at once, and writes no file of its own", async () => {
    const other = { ...(JSON.parse(hooks.join) as object), object: { type: "Collection", id: "second", name: "Two" } };
    const answers = await Promise.all([deliver(hooks.join), deliver(other)]);
    expect(answers).toEqual([200, 200]);
    expect(await running.store.get(IDENTITY_KEY)).toEqual({
      botId: "bots/bot-a78f46c5c203141b247554e180e1aa3553d282c6",
      name: "Chorus",
    });
    // Nothing beside the store in stateDir: no identity.json, no shared identity.json.tmp.
    expect(await readdir(running.ctx.stateDir)).toEqual([".chorus-store"]);
  });
});
