import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_TEXT_LENGTH, placeMentions } from "./outbound.js";
import { type LinkedChannel, linkedChannel, paramsSentTo } from "./test-support.test-util.js";
import { ANN, BOB, TEAM } from "./testing/fixture.js";

let world: LinkedChannel;
beforeEach(async () => {
  world = await linkedChannel();
});
afterEach(() => world.close());

describe("send", () => {
  it("returns a ref with the msgId Zalo returned and the client id it was sent with", async () => {
    const ref = await world.running.instance.send({ id: TEAM }, { text: "hello team" });
    const [stored] = world.fake.botMessages(TEAM);
    expect(stored?.text).toBe("hello team");
    expect(ref).toMatchObject({
      conversationId: TEAM,
      messageId: stored?.msgId,
      fromBot: true,
      data: { cliMsgId: stored?.cliMsgId, threadKind: "group", uidFrom: world.fake.bot.id, text: "hello team" },
    });
    // Whether the id is a group is asked of the group info API once, then kept in the store.
    expect(await world.store.get(`threads/${TEAM}`)).toBe("group");
  });

  it("a direct conversation: an id the group info API does not know is a person (/api/message/sms)", async () => {
    await world.running.instance.send({ id: ANN.id }, { text: "hi Ann" });
    expect(world.fake.botMessages(ANN.id).map((m) => m.text)).toEqual(["hi Ann"]);
    expect(paramsSentTo(world, "/api/message/sms")[0]).toMatchObject({ toid: ANN.id, message: "hi Ann" });
    expect(await world.store.get(`threads/${ANN.id}`)).toBe("user");
  });

  it("splits at Zalo's limit; only the first part quotes the message replied to", async () => {
    const question = await world.fake.personSends({ from: ANN.id, group: TEAM, text: "tell me everything" });
    const trigger = await world.inbound(question.msgId);
    const text = `${"a".repeat(MAX_TEXT_LENGTH - 10)} ${"b".repeat(500)}`;
    const ref = await world.running.instance.send({ id: TEAM }, { text, replyTo: trigger.ref });
    const parts = world.fake.botMessages(TEAM);
    expect(parts.map((m) => m.text.length)).toEqual([MAX_TEXT_LENGTH - 10, 500]);
    expect(parts.map((m) => m.quoteOf)).toEqual([question.msgId, undefined]);
    expect(ref.messageId).toBe(parts[0]?.msgId);
    const [quote] = paramsSentTo(world, "/api/group/quote");
    expect(quote).toMatchObject({ grid: TEAM, qmsgOwner: ANN.id, qmsgId: question.msgId, qmsg: "tell me everything" });
  });

  it("mentions people in a group by pos, len and uid, naming them when the text does not", async () => {
    await world.running.instance.send({ id: TEAM }, { text: "@Ann Nguyen lunch?", mentions: [ANN.id, BOB.id] });
    const [stored] = world.fake.botMessages(TEAM);
    expect(stored?.text).toBe("@Bob Tran @Ann Nguyen lunch?");
    expect(stored?.mentions).toEqual([
      { pos: 10, len: 11, uid: ANN.id, type: 0 },
      { pos: 0, len: 9, uid: BOB.id, type: 0 },
    ]);
    expect(world.fake.server.requestsTo("POST", "/api/group/mention")).toHaveLength(1);
  });

  it("resolves a message id it received or sent, and nothing else", async () => {
    const sent = await world.running.instance.send({ id: TEAM }, { text: "x" });
    expect(await world.running.instance.resolveMessageRef({ id: TEAM }, sent.messageId)).toEqual(sent);
    await expect(world.running.instance.resolveMessageRef({ id: ANN.id }, sent.messageId)).rejects.toMatchObject({
      code: "E_MESSAGE_NOT_FOUND",
    });
    await expect(world.running.instance.resolveMessageRef({ id: TEAM }, "6200000009999")).rejects.toMatchObject({
      code: "E_MESSAGE_NOT_FOUND",
    });
  });
});

describe("typing", () => {
  it("sends Zalo's typing event to the group or the person; off sends nothing", async () => {
    await world.running.instance.setTyping({ id: TEAM }, true);
    await world.running.instance.setTyping({ id: ANN.id }, true);
    await world.running.instance.setTyping({ id: TEAM }, false);
    expect(world.fake.state.typing).toEqual([
      { threadId: TEAM, kind: "group" },
      { threadId: ANN.id, kind: "user" },
    ]);
    expect(paramsSentTo(world, "/api/message/typing")[0]).toMatchObject({ toid: ANN.id, destType: 3 });
  });
});

describe("placeMentions", () => {
  it("finds each @Name in the text, in UTF-16 positions", () => {
    const names = new Map([["1", "Ánh 🌸"]]);
    expect(placeMentions("👋 @Ánh 🌸 hi", ["1"], names)).toEqual({
      text: "👋 @Ánh 🌸 hi",
      mentions: [{ pos: 3, len: 7, uid: "1" }],
    });
  });
});

describe("status and identity", () => {
  it("runs as the linked account", () => {
    expect(world.running.instance.status()).toEqual({
      state: "running",
      detail: `connected as ${world.fake.bot.name} (${world.fake.bot.id})`,
    });
    expect(world.running.instance.identity?.()).toEqual({
      id: world.fake.bot.id,
      name: world.fake.bot.name,
      isBot: true,
    });
  });
});
