import { createServer, type IncomingHttpHeaders } from "node:http";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BOT_API_PATH } from "../client.js";
import * as hooks from "../fixtures/talk-hooks.js";
import { sign } from "../signing.js";
import {
  createFakeTalk,
  createHook,
  type FakeBot,
  type FakeMessage,
  type FakeRoom,
  type FakeTalk,
  likeHook,
  membershipHook,
  phpArray,
  phpJsonEncode,
  talkRandom,
  undoHook,
} from "./index.js";

// The fake is the platform every test trusts, so its own rules are pinned here.
let fake: FakeTalk;
let bot: FakeBot;

beforeEach(async () => {
  fake = createFakeTalk();
  await fake.start();
  bot = fake.installBot({ name: "Chorus", secret: "k".repeat(64), url: "https://gw/hooks/nextcloud/default" });
  fake.addRoom({ token: "team" });
  fake.setupBot(bot, "team");
});

afterEach(async () => {
  await fake.close();
});

const post = (message: string, headers: Record<string, string>) =>
  fetch(`${fake.url}${BOT_API_PATH}/team/message`, {
    method: "POST",
    headers: { "content-type": "application/json", "ocs-apirequest": "true", ...headers },
    body: JSON.stringify({ message }),
  });

describe("fake Talk", () => {
  it("checks the signature over random + message exactly (a wrong one is 401), and answers in OCS", async () => {
    const random = "a".repeat(32);
    const wrong = await post("hi", {
      "x-nextcloud-talk-bot-random": random,
      "x-nextcloud-talk-bot-signature": sign(bot.secret, random, "hi!"),
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({
      ocs: { meta: { status: "failure", statuscode: 401, message: "" }, data: null },
    });
    const right = await post("hi", {
      "x-nextcloud-talk-bot-random": random,
      "x-nextcloud-talk-bot-signature": sign(bot.secret, random, "hi"),
    });
    expect(right.status).toBe(201);
    expect(fake.messagesIn("team")).toMatchObject([{ actorId: bot.actorId, message: "hi" }]);
  });

  it("answers 400 for a random shorter than 32 characters and 412 without OCS-APIRequest", async () => {
    const short = await post("hi", { "x-nextcloud-talk-bot-random": "abc", "x-nextcloud-talk-bot-signature": "00" });
    expect(short.status).toBe(400);
    const noOcs = await fetch(`${fake.url}${BOT_API_PATH}/team/message`, { method: "POST", body: "{}" });
    expect(noOcs.status).toBe(412);
  });

  it("keeps reactions per actor: 201 created, 200 already there", async () => {
    const hook = fake.userSends({ token: "team", user: { id: "ann", name: "Ann" }, message: "x" });
    const react = () => {
      const random = "b".repeat(40);
      return fetch(`${fake.url}${BOT_API_PATH}/team/reaction/${hook.object.id}`, {
        method: "POST",
        headers: {
          "ocs-apirequest": "true",
          "content-type": "application/json",
          "x-nextcloud-talk-bot-random": random,
          "x-nextcloud-talk-bot-signature": sign(bot.secret, random, "🎉"),
        },
        body: JSON.stringify({ reaction: "🎉" }),
      });
    };
    expect((await react()).status).toBe(201);
    expect((await react()).status).toBe(200);
    fake.userReacts(Number(hook.object.id), { id: "ann", name: "Ann" }, "🎉");
    expect(fake.botReactions(Number(hook.object.id), bot)).toEqual(["🎉"]);
    expect(fake.reactionsBy(Number(hook.object.id), "users/ann")).toEqual(["🎉"]);
  });

  it("names one-to-one conversations with the sorted JSON list of their users", () => {
    expect(fake.addRoom({ token: "dm", type: "one2one", users: ["zed", "ann"] }).name).toBe('["ann","zed"]');
  });
});

describe("what the fake sends is what Talk sends", () => {
  const team: FakeRoom = { token: "n3xtc10ud", name: "Team Room", type: "group", bots: [], participants: [] };
  const direct: FakeRoom = {
    token: "d1r3ct",
    name: '["ada-lovelace","charles"]',
    type: "one2one",
    bots: [],
    participants: [],
  };
  const ada = { id: "ada-lovelace", name: "Ada Lovelace" };
  const message = (
    id: number,
    text: string,
    parameters = {},
    actorId = "users/ada-lovelace",
    actorName = "Ada Lovelace",
  ) => ({ id, token: "n3xtc10ud", actorId, actorName, message: text, parameters }) satisfies FakeMessage;

  it("builds the fixtures' exact bytes from the same inputs: PHP escaping, talkParticipantType a string", () => {
    const typed = message(1568, "@Chorus what does {mention-user1} think? cc {mention-call1}", {
      "mention-user1": { type: "user", id: "bob", name: "Bob Builder", "mention-id": "bob" },
      "mention-call1": {
        type: "call",
        id: "n3xtc10ud",
        name: "Team Room",
        "call-type": "group",
        "icon-url": "https://cloud.example.com/ocs/v2.php/apps/spreed/api/v1/room/n3xtc10ud/avatar",
      },
    });
    expect(phpJsonEncode(createHook(team, ada, typed))).toBe(hooks.groupTypedName);
    const parent = message(
      1569,
      "Shall I book the room? 🗓️",
      {},
      "bots/bot-0da93cc240afce54e4913e0916c743b2ab694484",
      "Chorus",
    );
    expect(phpJsonEncode(createHook(direct, ada, message(1570, "yes, book it / thanks ✅"), parent))).toBe(
      hooks.replyToBot,
    );
    expect(phpJsonEncode(likeHook(team, ada, message(1567, "hi"), "😆"))).toBe(hooks.like);
    expect(phpJsonEncode(undoHook(team, ada, message(1567, "hi"), "😆"))).toBe(hooks.undo);
    const bot123 = { ...bot, actorId: "bots/bot-a78f46c5c203141b247554e180e1aa3553d282c6", name: "Bot123" };
    expect(phpJsonEncode(membershipHook("Join", bot123, { ...team, name: "world" }))).toBe(hooks.join);
  });

  it("encodes like PHP's json_encode: \\/ and \\uXXXX (surrogate pairs for emoji), [] for no parameters", () => {
    expect(phpJsonEncode({ a: "x/y", b: "é😆", c: phpArray({}), d: phpArray({ k: 1 }) })).toBe(
      '{"a":"x\\/y","b":"\\u00e9\\ud83d\\ude06","c":[],"d":{"k":1}}',
    );
  });

  it("signs each delivery over its exact bytes with a 64-character random of base64's alphabet", async () => {
    const received: { headers: IncomingHttpHeaders; body: string }[] = [];
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
        res.end("{}");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const address = receiver.address();
    const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/hook`;
    try {
      const created = fake.userSends({ token: "team", user: { id: "ann", name: "Ann" }, message: "a/b 😆" });
      await fake.deliver(url, bot, created);
      await fake.redeliverLast();
      await fake.replayLast();
      const [first, again, replay] = received;
      expect(first?.body).toBe(phpJsonEncode(created));
      expect(first?.body).toContain('"talkParticipantType":"3"');
      expect(first?.body).toContain("a\\\\\\/b \\\\ud83d\\\\ude06");
      const random = first?.headers["x-nextcloud-talk-random"] as string;
      expect(random).toMatch(/^[A-Za-z0-9+/]{64}$/u);
      expect(first?.headers["x-nextcloud-talk-signature"]).toBe(sign(bot.secret, random, first?.body ?? ""));
      expect(first?.headers["x-nextcloud-talk-backend"]).toBe(`${fake.url}/`);
      // Talk fires an event again with a fresh random; a replay repeats random and signature.
      expect(again?.body).toBe(first?.body);
      expect(again?.headers["x-nextcloud-talk-random"]).not.toBe(random);
      expect(replay?.headers["x-nextcloud-talk-random"]).toBe(again?.headers["x-nextcloud-talk-random"]);
      expect(replay?.headers["x-nextcloud-talk-signature"]).toBe(again?.headers["x-nextcloud-talk-signature"]);
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
    // Over many randoms, + and / do occur, as in Talk's.
    const many = Array.from({ length: 200 }, () => talkRandom()).join("");
    expect(many).toMatch(/\+/u);
    expect(many).toMatch(/\//u);
  });

  it("delivers each hook once: an answer other than 200 or 202 only raises the bot's error count", async () => {
    const statuses = [200, 202, 201, 503];
    const receiver = createServer((req, res) => {
      req.resume();
      req.on("end", () => res.writeHead(statuses.shift() ?? 200).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const address = receiver.address();
    const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/hook`;
    try {
      const created = fake.userSends({ token: "team", user: { id: "ann", name: "Ann" }, message: "once" });
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push((await fake.deliver(url, bot, created)).status);
      expect(answers).toEqual([200, 202, 201, 503]);
      // Four posts, four deliveries: nothing was posted again on its own.
      expect(fake.deliveries).toHaveLength(4);
      expect(bot.errorCount).toBe(2);
      expect(bot.lastErrorMessage).toBe("UnexpectedStatusCode: 503");
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});
