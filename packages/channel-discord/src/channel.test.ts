import { inspect } from "node:util";
import type { InboundMessageEvent, InboundReactionEvent } from "@chorus/core";
import { eventually, faults, type RunningChannel, startChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { discordChannel } from "./index.js";
import { createFakeDiscord, type FakeDiscord } from "./testing/index.js";

const ANN = { id: "700000000000000001", username: "ann", global_name: "Ann" };
const BOB = { id: "700000000000000002", username: "bob", global_name: "Bob" };
const PARROT = { id: "800000000000000001", name: "party_parrot", animated: true };
let fake: FakeDiscord;
let channel: RunningChannel;

beforeEach(async () => {
  fake = createFakeDiscord();
  await fake.start();
  fake.addGuild({ id: "100", name: "Team", channels: [{ id: "200", name: "general" }], emojis: [PARROT] });
  fake.addMember("100", ANN);
  fake.addMember("100", BOB);
  fake.addThread({ id: "300", name: "plans", parentId: "200" });
  fake.addDm("400", ANN);
  channel = await startChannel(discordChannel, { config: fake.config() });
});
afterEach(async () => {
  await channel.stop();
  await fake.close();
});

const messageWith = (text: string) => (e: { type: string }) =>
  e.type === "message" && (e as InboundMessageEvent).text.includes(text);
const waitMessage = (text: string) => channel.waitForEvent(messageWith(text)) as Promise<InboundMessageEvent>;

describe("Discord inbound", () => {
  it("identifies over the gateway with the intents of the issue and knows who it is", () => {
    const identify = fake.gateway.received.find((p) => p.op === 2) as { d: { intents: number } };
    expect(identify.d.intents).toBe(1 | (1 << 9) | (1 << 10) | (1 << 12) | (1 << 13) | (1 << 15));
    expect(channel.instance.identity?.()).toEqual({ id: fake.bot.id, name: "Chorus", isBot: true });
    expect(channel.instance.status().state).toBe("running");
  });

  it("the bot's role is a mention of the bot; a redelivered message is emitted once", async () => {
    fake.userSends({ channelId: "200", author: ANN, content: `<@&${fake.botRoleId("100")}> ping by role` });
    expect((await waitMessage("ping by role")).mentions.bot).toBe(true);
    // discord.js passes a MESSAGE_CREATE of a message it holds by; one it no longer holds would
    // reach the host with the same eventId (message:<id>), which drops the repeat.
    fake.redeliverLast();
    fake.userSends({ channelId: "200", author: ANN, content: "after the redelivery" });
    await waitMessage("after the redelivery");
    expect(channel.events.filter(messageWith("ping by role"))).toHaveLength(1);
  });

  it("a reply to the bot carries replyTo.fromBot; the bot's own echo is dropped", async () => {
    const sent = await channel.instance.send({ id: "200" }, { text: "bot says hi" });
    fake.userSends({ channelId: "200", author: ANN, content: "answering you", replyTo: sent.messageId });
    const event = await waitMessage("answering you");
    expect(event.replyTo).toMatchObject({ messageId: sent.messageId, fromBot: true });
    expect(event.mentions.bot).toBe(true);
    expect(channel.events.filter(messageWith("bot says hi"))).toEqual([]);
  });

  it("threads are their own sessions under the parent; DMs are direct", async () => {
    fake.userSends({ channelId: "400", author: ANN, content: "privately" });
    expect((await waitMessage("privately")).conversation).toEqual({ id: "400", kind: "direct" });
    fake.userSends({ channelId: "300", author: ANN, content: "in the thread" });
    expect((await waitMessage("in the thread")).conversation).toMatchObject({
      id: "200",
      threadId: "300",
      kind: "group",
    });
  });

  it("reactions of people become events (add, remove, remove-all); the bot's own are dropped", async () => {
    const message = fake.userSends({ channelId: "200", author: ANN, content: "react here" });
    await waitMessage("react here");
    const ref = await channel.instance.resolveMessageRef({ id: "200" }, message.id);
    await channel.instance.react(ref, { op: "add", emoji: "👀" });
    fake.userReacts(message.id, BOB, { id: null, name: "🎉" });
    fake.userUnreacts(message.id, BOB, { id: null, name: "🎉" });
    fake.userReacts(message.id, BOB, PARROT);
    fake.removeAllReactions(message.id);
    const reactions = () => channel.events.filter((e): e is InboundReactionEvent => e.type === "reaction");
    await eventually(() => expect(reactions()).toHaveLength(4));
    expect(reactions().map((e) => [e.action, e.emoji, e.actor.id])).toEqual([
      ["added", "🎉", BOB.id],
      ["removed", "🎉", BOB.id],
      ["added", "party_parrot:800000000000000001", BOB.id],
      ["removed", "party_parrot:800000000000000001", BOB.id],
    ]);
    expect(reactions()[0]?.target).toMatchObject({ conversationId: "200", messageId: message.id });
  });
});

describe("Discord send and reactions", () => {
  it("splits at 2000 characters, replies via message reference, types in threads", async () => {
    const target = fake.userSends({ channelId: "300", author: ANN, content: "long please" });
    const ref = await channel.instance.resolveMessageRef({ id: "200", threadId: "300" }, target.id);
    const text = `${"a".repeat(1500)}\n\n${"b".repeat(1500)}`;
    const first = await channel.instance.send({ id: "200", threadId: "300" }, { text, replyTo: ref });
    await channel.instance.setTyping({ id: "200", threadId: "300" }, true);
    const sent = fake.messagesIn("300").filter((m) => m.author.id === fake.bot.id);
    expect(sent.map((m) => m.content.length)).toEqual([1500, 1500]);
    expect(sent[0]?.message_reference?.message_id).toBe(target.id);
    expect(sent[1]?.message_reference).toBeUndefined();
    expect(first).toMatchObject({ conversationId: "200", threadId: "300", messageId: sent[0]?.id, fromBot: true });
    expect(fake.server.requestsTo("POST", "/api/v10/channels/300/typing")).toHaveLength(1);
  });

  it("custom emoji (<a:name:id>, name:id, :name:) are URL-encoded; clear keeps others'; list counts", async () => {
    const ref = await channel.instance.send({ id: "200" }, { text: "target" });
    await channel.instance.react(ref, { op: "add", emoji: "<a:party_parrot:800000000000000001>" });
    await channel.instance.react(ref, { op: "add", emoji: ":party_parrot:" });
    await channel.instance.react(ref, { op: "add", emoji: "thumbsup" });
    const puts = fake.server.requestsTo("PUT", /\/reactions\//).map((r) => r.path.split("/")[8]);
    expect(puts).toEqual(["party_parrot%3A800000000000000001", "party_parrot%3A800000000000000001", "%F0%9F%91%8D"]);
    fake.userReacts(ref.messageId, ANN, { id: null, name: "👍" });
    expect(await channel.instance.listReactions?.(ref)).toEqual([
      { emoji: "party_parrot:800000000000000001", count: 1, me: true },
      { emoji: "👍", count: 2, me: true },
    ]);
    const cleared = await channel.instance.react(ref, { op: "clear" });
    expect(cleared.removed).toEqual(["party_parrot:800000000000000001", "👍"]);
    expect(fake.botReactions(ref.messageId)).toEqual([]);
    expect(fake.reactionsBy(ref.messageId, ANN.id)).toEqual(["👍"]);
    expect(fake.server.requestsTo("DELETE", /\/reactions$/)).toEqual([]);
    await expect(channel.instance.react(ref, { op: "add", emoji: "not_an_emoji_here" })).rejects.toMatchObject({
      code: "E_UNSUPPORTED_EMOJI",
    });
  });

  it("an unknown message is E_MESSAGE_NOT_FOUND", async () => {
    await expect(channel.instance.resolveMessageRef({ id: "200" }, "123")).rejects.toMatchObject({
      code: "E_MESSAGE_NOT_FOUND",
    });
  });
});

describe("Discord failures", () => {
  const SEND = { path: /\/channels\/200\/messages$/ };

  it("429 with Retry-After: discord.js' queue waits it out, then sends", async () => {
    fake.server.inject(
      faults.rateLimit(SEND, 1, { body: { message: "You are being rate limited.", retry_after: 1, global: false } }),
    );
    await channel.instance.send({ id: "200" }, { text: "patient" });
    const [refused, accepted] = fake.server.requestsTo("POST", SEND.path);
    expect(refused?.status).toBe(429);
    expect((accepted?.at ?? 0) - (refused?.at ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it("429 longer than maxRetryAfterMs is E_RATE_LIMITED at once", async () => {
    await channel.stop();
    channel = await startChannel(discordChannel, { config: fake.config({ maxRetryAfterMs: 500 }) });
    fake.server.inject(faults.rateLimit(SEND, 30, { body: { message: "slow", retry_after: 30, global: false } }));
    await expect(channel.instance.send({ id: "200" }, { text: "x" })).rejects.toMatchObject({ code: "E_RATE_LIMITED" });
  });

  it("5xx then success is retried (bounded); a lasting 5xx is a retryable E_PLATFORM", async () => {
    await channel.stop();
    channel = await startChannel(discordChannel, { config: fake.config({ retries: 1 }) });
    fake.server.inject(faults.serverError(SEND, { status: 502 }));
    await channel.instance.send({ id: "200" }, { text: "second try" });
    expect(fake.server.requestsTo("POST", SEND.path).map((r) => r.status)).toEqual([502, 200]);
    fake.server.inject(faults.serverError(SEND, { status: 502, times: 2 }));
    await expect(channel.instance.send({ id: "200" }, { text: "no" })).rejects.toMatchObject({
      code: "E_PLATFORM",
      retryable: true,
    });
  });

  it("a 401 on a call is E_AUTH; the error, causes included, carries no token", async () => {
    fake.server.inject(faults.serverError(SEND, { status: 401, body: { message: "401: Unauthorized", code: 0 } }));
    const error = await channel.instance.send({ id: "200" }, { text: "x" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "E_AUTH", hint: expect.stringMatching(/Reset Token/) });
    const shown = inspect(error, { depth: 10 });
    expect(shown).toContain("/channels/200/messages");
    expect(shown).not.toContain(fake.token);
  });

  it("a wrong token is E_AUTH at start", async () => {
    await expect(startChannel(discordChannel, { config: fake.config({ token: "wrong" }) })).rejects.toMatchObject({
      code: "E_AUTH",
    });
  });

  it("a dropped gateway connection is resumed and the missed events are replayed", async () => {
    const session = fake.gateway.current;
    await fake.server.dropWebSockets();
    fake.userSends({ channelId: "200", author: ANN, content: "while you were away" });
    await waitMessage("while you were away");
    expect(session?.resumed).toBe(1);
    expect(fake.gateway.received.filter((p) => p.op === 6)).toHaveLength(1);
    await eventually(() => expect(channel.instance.status().state).toBe("running"));
  });
});
