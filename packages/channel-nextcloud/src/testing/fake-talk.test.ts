import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BOT_API_PATH } from "../client.js";
import { sign } from "../signing.js";
import { createFakeTalk, type FakeBot, type FakeTalk } from "./index.js";

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
