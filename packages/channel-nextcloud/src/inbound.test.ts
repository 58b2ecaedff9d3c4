import { readFileSync } from "node:fs";
import { type RunningChannel, startChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { nextcloudChannel } from "./index.js";
import { botActorId } from "./signing.js";
import { createFakeTalk, type FakeBot, type FakeTalk } from "./testing/index.js";
import type { TalkWebhookBody } from "./wire.js";

/** Payloads in the shape spreed's docs/bots.md and BotService.php produce. */
const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../src/fixtures/${name}.json`, import.meta.url), "utf8")) as TalkWebhookBody;

// Fixtures name the bot as Talk would for this URL: bots/bot-<sha1(url)>.
const WEBHOOK_URL = "https://gateway.example.com/hooks/nextcloud/default";
const BOT_ID = botActorId(WEBHOOK_URL);

let fake: FakeTalk;
let bot: FakeBot;
let running: RunningChannel;
let hook: string;

beforeEach(async () => {
  fake = createFakeTalk();
  await fake.start();
  bot = fake.installBot({ name: "Chorus", secret: "k".repeat(64), url: WEBHOOK_URL });
  running = await startChannel(nextcloudChannel, { config: fake.config(bot, { webhookUrl: WEBHOOK_URL }) });
  hook = running.ctx.http.url("/default");
});

afterEach(async () => {
  await running.stop();
  await fake.close();
});

const deliver = async (body: TalkWebhookBody, options?: Parameters<FakeTalk["deliver"]>[3]) =>
  (await fake.deliver(hook, bot, body, options)).status;

describe("Create (chat messages)", () => {
  it("computes the bot's actor id from the installed URL, like Talk", () => {
    expect(BOT_ID).toBe("bots/bot-0da93cc240afce54e4913e0916c743b2ab694484");
    expect(running.instance.identity?.()).toEqual({ id: BOT_ID, name: "Chorus", isBot: true });
  });

  it("normalises a group message that names the bot by a typed @name, resolving mention placeholders", async () => {
    expect(await deliver(fixture("group-typed-name"))).toBe(200);
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
  });

  it("recognises a mention parameter naming the bot's actor, and files by name", async () => {
    expect(await deliver(fixture("group-mention"))).toBe(200);
    expect(running.events).toMatchObject([
      { text: "@Chorus ask @Bob Builder about the plan.pdf", mentions: { bot: true, others: ["users/bob"] } },
    ]);
  });

  it("states that only others were mentioned when the bot was not", async () => {
    const room = fake.addRoom({ token: "team", name: "Team" });
    const event = fake.userSends({
      token: room.token,
      user: { id: "ada", name: "Ada" },
      message: "{mention-user1} lunch?",
      parameters: { "mention-user1": { type: "user", id: "bob", name: "Bob" } },
    });
    await deliver(event);
    expect(running.events).toMatchObject([{ text: "@Bob lunch?", mentions: { bot: false, others: ["users/bob"] } }]);
  });

  it("marks a reply to the bot's message in a one-to-one conversation", async () => {
    expect(await deliver(fixture("reply-to-bot"))).toBe(200);
    expect(running.events).toMatchObject([
      {
        conversation: { id: "d1r3ct", kind: "direct" },
        text: "yes, book it",
        mentions: { bot: false, others: [] },
        replyTo: { messageId: "1569", fromBot: true, senderId: BOT_ID, text: "Shall I book the room?" },
      },
    ]);
    expect(running.events[0]?.conversation).not.toHaveProperty("title");
  });

  it("drops the bot's own echo and system messages", async () => {
    expect(await deliver(fixture("own-echo"))).toBe(200);
    expect(await deliver(fixture("system-message"))).toBe(200);
    expect(running.events).toEqual([]);
  });

  it("emits a redelivered message once (same message id, new random)", async () => {
    expect(await deliver(fixture("group-typed-name"))).toBe(200);
    expect(await deliver(fixture("group-typed-name"))).toBe(200);
    expect(running.events).toHaveLength(1);
  });
});

describe("Like / Undo (reactions)", () => {
  it("emits added and removed reaction events", async () => {
    await deliver(fixture("like"));
    await deliver(fixture("undo"));
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
  });

  it("emits a reaction added again after an undo (each delivery is its own event)", async () => {
    await deliver(fixture("like"));
    await deliver(fixture("undo"));
    await deliver(fixture("like"));
    expect(running.events.map((e) => (e.type === "reaction" ? e.action : e.type))).toEqual([
      "added",
      "removed",
      "added",
    ]);
  });
});

describe("Join / Leave", () => {
  it("learns the bot's actor id from a Join, persists it, and then drops that actor's echoes", async () => {
    expect(await deliver(fixture("join"))).toBe(200);
    const learned = "bots/bot-a78f46c5c203141b247554e180e1aa3553d282c6";
    expect(running.instance.identity?.()).toMatchObject({ id: learned, name: "Chorus" });
    const echo = fixture("own-echo") as { actor: { id: string } };
    echo.actor.id = learned;
    await deliver(echo as TalkWebhookBody);
    expect(running.events).toEqual([]);

    const again = await startChannel(nextcloudChannel, {
      config: fake.config(bot, { webhookUrl: WEBHOOK_URL }),
      stateDir: running.ctx.stateDir,
    });
    try {
      expect(again.instance.identity?.()?.id).toBe(learned);
    } finally {
      await again.stop();
    }
  });
});

describe("verification: forged, foreign and replayed requests get 401 and nothing is processed", () => {
  it("refuses a wrong secret", async () => {
    expect(await deliver(fixture("group-typed-name"), { secret: "x".repeat(64) })).toBe(401);
    expect(running.events).toEqual([]);
  });

  it("refuses a tampered body (signature over another body)", async () => {
    const response = await fetch(hook, {
      method: "POST",
      headers: {
        "x-nextcloud-talk-random": "r".repeat(64),
        "x-nextcloud-talk-signature": (await import("./signing.js")).sign(bot.secret, "r".repeat(64), "{}"),
        "x-nextcloud-talk-backend": `${fake.url}/`,
      },
      body: JSON.stringify(fixture("group-typed-name")),
    });
    expect(response.status).toBe(401);
    expect(running.events).toEqual([]);
  });

  it("refuses missing headers and a short random", async () => {
    expect((await fetch(hook, { method: "POST", body: JSON.stringify(fixture("like")) })).status).toBe(401);
    expect(await deliver(fixture("like"), { random: "short" })).toBe(401);
    expect(running.events).toEqual([]);
  });

  it("refuses a delivery from another Nextcloud (X-Nextcloud-Talk-Backend)", async () => {
    expect(await deliver(fixture("like"), { backend: "https://evil.example.com/" })).toBe(401);
    expect(running.events).toEqual([]);
  });

  it("refuses a replay of a captured delivery (same random)", async () => {
    const random = "R".repeat(64);
    expect(await deliver(fixture("like"), { random })).toBe(200);
    expect(await deliver(fixture("like"), { random })).toBe(401);
    expect(running.events).toHaveLength(1);
  });
});

describe("routing", () => {
  it("serves each account's hook under /hooks/nextcloud/<account>", async () => {
    const work = fake.installBot({ name: "Work bot", secret: "w".repeat(64), url: "https://gw/hooks/nextcloud/work" });
    const other = await startChannel(nextcloudChannel, { config: fake.config(work), accountId: "work" });
    try {
      const url = other.ctx.http.url("/work");
      expect(new URL(url).pathname).toBe("/hooks/nextcloud/work");
      expect((await fake.deliver(url, work, fixture("like"))).status).toBe(200);
      // The default account's secret does not open the work account's hook.
      expect((await fake.deliver(url, bot, fixture("like"))).status).toBe(401);
      expect(other.events).toHaveLength(1);
    } finally {
      await other.stop();
    }
  });

  it("answers 503 (verified, not processed) before start", async () => {
    const idle = await startChannel(nextcloudChannel, { config: fake.config(bot), start: false });
    try {
      expect((await fake.deliver(idle.ctx.http.url("/default"), bot, fixture("like"))).status).toBe(503);
      expect(idle.events).toEqual([]);
    } finally {
      await idle.stop();
    }
  });
});
