import { type RunningChannel, startChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { signalChannel } from "./index.js";
import { type FakeGroup, type FakePerson, FakeSignal } from "./testing/index.js";

let fake: FakeSignal;
let running: RunningChannel;
let ann: FakePerson;
let team: FakeGroup;

beforeEach(async () => {
  fake = new FakeSignal({ keepAliveMs: 0 });
  await fake.start();
  ann = fake.state.addPerson({ number: "+15550002222", name: "Ann" });
  team = fake.state.addGroup({ name: "Team", members: [ann] });
  running = await startChannel(signalChannel, { config: fake.config({ timeoutMs: 1_000 }) });
});

afterEach(async () => {
  await running.stop();
  await fake.close();
});

describe("start and status", () => {
  it("learns its uuid and profile name from listContacts, and says where it listens", () => {
    expect(running.instance.identity?.()).toEqual({
      id: fake.bot.uuid,
      name: "Chorus",
      e164: fake.account,
      isBot: true,
    });
    expect(running.instance.status()).toEqual({
      state: "running",
      detail: `linked as ${fake.account} (Chorus); events from ${fake.url}`,
    });
    expect(fake.calls("listContacts")).toEqual([
      { account: fake.account, recipient: [fake.account], allRecipients: true },
    ]);
  });

  it("fails to start with E_AUTH and the login hint when the daemon does not know the number", async () => {
    const multi = new FakeSignal({ mode: "multi" });
    await multi.start();
    const unlinked = await startChannel(signalChannel, { config: multi.config(), start: false });
    try {
      const error = await unlinked.instance.start().catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "E_AUTH", hint: expect.stringContaining("chorus channels login signal") });
      expect(unlinked.instance.status()).toEqual({
        state: "degraded",
        detail: "signal-cli: Specified account does not exist",
      });
    } finally {
      await unlinked.stop();
      await multi.close();
    }
  });
});

describe("send", () => {
  it("sends into a group by groupId and returns a ref of the bot's message by its timestamp", async () => {
    const ref = await running.instance.send({ id: team.id }, { text: "hello team" });
    const [sent] = fake.sentTo(team.id);
    expect(sent?.text).toBe("hello team");
    expect(fake.calls("send")).toEqual([{ account: fake.account, groupId: team.id, message: "hello team" }]);
    expect(ref).toEqual({
      channel: "signal",
      accountId: "default",
      conversationId: team.id,
      messageId: String(sent?.timestamp),
      fromBot: true,
      data: { author: fake.account, timestamp: sent?.timestamp },
    });
  });

  it("sends a direct message by recipient, to a uuid or a number", async () => {
    await running.instance.send({ id: ann.uuid }, { text: "hi Ann" });
    await running.instance.send({ id: ann.number as string }, { text: "hi again" });
    expect(fake.sentTo(ann.uuid).map((m) => m.text)).toEqual(["hi Ann", "hi again"]);
    expect(fake.calls("send").map((p) => p.recipient)).toEqual([[ann.uuid], [ann.number]]);
  });

  it("replies by quoting the author and timestamp of the message answered", async () => {
    const question = fake.people.sends({ from: ann, group: team, text: "lunch?" });
    await running.waitForEvent((e) => e.type === "message" && e.text === "lunch?");
    const asked = running.events[0];
    if (asked?.type !== "message") throw new Error("no message");
    await running.instance.send({ id: team.id }, { text: "yes", replyTo: asked.ref });
    expect(fake.sentTo(team.id)[0]?.quote).toEqual({ timestamp: question.timestamp, author: ann.uuid });
    expect(fake.calls("send")[0]).toMatchObject({ quoteTimestamp: question.timestamp, quoteAuthor: ann.uuid });
  });

  it("turns Markdown into Signal text styles (UTF-16 offsets) and mentions into placeholders", async () => {
    await running.instance.send(
      { id: team.id },
      { text: "**Plan** for 🚀 *today*: `npm test`, ~~not~~ @ANN ok", mentions: [ann.uuid] },
    );
    const [sent] = fake.sentTo(team.id);
    // The mention of Ann was not written as @<uuid>, so it goes in front.
    expect(sent?.text).toBe("\uFFFC Plan for 🚀 today: npm test, not @ANN ok");
    expect(sent?.textStyles).toEqual(["2:4:BOLD", "14:5:ITALIC", "21:8:MONOSPACE", "31:3:STRIKETHROUGH"]);
    expect(sent?.mentions).toEqual([`0:1:${ann.uuid}`]);
    await running.instance.send({ id: team.id }, { text: `thanks @${ann.uuid}!`, mentions: [ann.uuid] });
    expect(fake.sentTo(team.id)[1]).toMatchObject({ text: "thanks \uFFFC!", mentions: [`7:1:${ann.uuid}`] });
  });

  it("splits text longer than 2000 characters, quoting and mentioning with the first part only", async () => {
    const question = fake.people.sends({ from: ann, group: team, text: "tell me everything" });
    await running.waitForEvent((e) => e.type === "message");
    const asked = running.events[0];
    if (asked?.type !== "message") throw new Error("no message");
    const paragraphs = ["a".repeat(1500), "b".repeat(1500), "c".repeat(700)];
    const ref = await running.instance.send(
      { id: team.id },
      { text: paragraphs.join("\n\n"), replyTo: asked.ref, mentions: [ann.uuid] },
    );
    const sent = fake.sentTo(team.id);
    expect(sent.map((m) => m.text.replace("\uFFFC ", ""))).toEqual(paragraphs);
    expect(sent.map((m) => m.quote?.timestamp)).toEqual([question.timestamp, undefined, undefined]);
    expect(sent.map((m) => m.mentions.length)).toEqual([1, 0, 0]);
    expect(ref.messageId).toBe(String(sent[0]?.timestamp));
  });

  it("fails with E_MESSAGE_NOT_FOUND for a group the bot is not in", async () => {
    await expect(running.instance.send({ id: "bm90IGEgZ3JvdXA=" }, { text: "hi" })).rejects.toMatchObject({
      code: "E_MESSAGE_NOT_FOUND",
    });
  });
});

describe("typing and finding messages", () => {
  it("shows and stops typing with sendTyping", async () => {
    await running.instance.setTyping({ id: team.id }, true);
    expect(fake.state.typing.get(team.id)).toBe(true);
    await running.instance.setTyping({ id: ann.uuid }, false);
    expect(fake.calls("sendTyping")).toEqual([
      { account: fake.account, groupId: team.id },
      { account: fake.account, recipient: [ann.uuid], stop: true },
    ]);
  });

  it("refuses to guess the author of a timestamp it has not seen (E_MESSAGE_NOT_FOUND)", async () => {
    const { timestamp } = fake.people.sends({ from: ann, group: team, text: "x" });
    await expect(running.instance.resolveMessageRef({ id: team.id }, String(timestamp))).rejects.toMatchObject({
      code: "E_MESSAGE_NOT_FOUND",
    });
  });
});
