import { describe, expect, it } from "vitest";
import { CONTEXT_MARKER, CURRENT_MARKER } from "../../src/testing/index.js";
import { removeHome } from "../support/gateway-process.js";
import { type GroupsHarness, useGroupsGateway } from "../support/groups-a-gateway.js";
import {
  ANN,
  BOB,
  botReply,
  botTexts,
  readSessions,
  requestWith,
  systemOf,
  userOf,
} from "../support/groups-a-world.js";
import { makeHome, runChorus } from "../support/loading-cli.js";

const ANN_FROM = "[from: Ann (+4915100000001)]";
const BOB_FROM = "[from: Bob (+4915100000002)]";

/** Posts `waiting` (must not wake the agent), then `trigger` (must); the model sees both in one batch. */
async function expectBatched(
  h: GroupsHarness,
  group: string,
  waiting: { sender: typeof ANN; text: string; mentions?: string[] },
  trigger: { sender: typeof ANN; text: string; mentions?: string[]; replyToId?: string },
): Promise<void> {
  h.say(group, waiting.sender, waiting.text, waiting.mentions ? { mentions: waiting.mentions } : {});
  const answer = `answer in ${group}`;
  h.model.script({ text: answer });
  const { sender, text, ...extra } = trigger;
  h.say(group, sender, text, extra);
  await botReply(h.platform, group, answer);
  const from = sender.id === "ann" ? ANN_FROM : BOB_FROM;
  expect(userOf(requestWith(h.model, text))).toBe(
    [
      CONTEXT_MARKER,
      `${waiting.sender.name}: ${waiting.text}`,
      "",
      CURRENT_MARKER,
      `${sender.name}: ${text}`,
      from,
    ].join("\n"),
  );
  // The waiting message never reached the model on its own.
  expect(h.model.requests.filter((r) => userOf(r).includes(waiting.text))).toHaveLength(1);
}

/** Posts `text`, expects one turn whose batch is just that message, and returns the model's reply. */
async function expectTriggered(h: GroupsHarness, group: string, text: string, extra: { replyToId?: string } = {}) {
  const answer = `triggered in ${group}: ${h.model.requests.length}`;
  h.model.script({ text: answer });
  h.say(group, ANN, text, extra);
  const reply = await botReply(h.platform, group, answer);
  expect(userOf(requestWith(h.model, text))).toBe(`Ann: ${text}\n${ANN_FROM}`);
  return reply;
}

describe("activation `mention` (default) and mention detection; owner commands (Ann owns via allowFrom)", () => {
  const h = useGroupsGateway(() => ({
    memory: { dmPolicy: "open", groupPolicy: "open", allowFrom: [ANN.phone] },
    agent: { groupChat: { mentionPatterns: ["\\bchorus\\b", "^jarvis\\b"] } },
    extra: { messages: { groupChat: { mentionPatterns: ["\\bbutler\\b"] } } },
  }));

  it("by default unmentioned messages wait as context; a platform mention wakes the agent with a trigger-only intro", async () => {
    const group = h.world.group("g-default", "Pizza Club");
    await expectBatched(
      h,
      group,
      { sender: BOB, text: "who is up for pizza?" },
      { sender: ANN, text: "what do you think?", mentions: ["bot"] },
    );
    const system = systemOf(requestWith(h.model, "what do you think?"));
    expect(system).toContain(
      'You are replying inside the Memory group "Pizza Club". Group members: Ann (+4915100000001), Bob (+4915100000002).',
    );
    expect(system).toContain("Activation: trigger-only");
  });

  it("when the platform says others were mentioned and not the bot, the patterns are not tried", async () => {
    const group = h.world.group("g-others");
    await expectBatched(
      h,
      group,
      { sender: ANN, text: "Chorus fans, ask Bob", mentions: ["bob"] },
      { sender: ANN, text: "and you?", mentions: ["bot"] },
    );
  });

  it("agent mentionPatterns match case-insensitively; messages.groupChat.mentionPatterns is then not used", async () => {
    const group = h.world.group("g-patterns");
    await expectBatched(h, group, { sender: BOB, text: "ask the butler" }, { sender: BOB, text: "JARVIS, lights on?" });
  });

  it("the bot's E.164 digits in the text, a reply to the bot and a zero-width split name each wake the agent", async () => {
    const group = h.world.group("g-triggers");
    const first = await expectTriggered(h, group, "ring +49 151-9999 9999 please");
    await expectTriggered(h, group, "thanks for that", { replyToId: first.id });
    await expectTriggered(h, group, "Cho\u200Brus, still there?");
  });

  it("a non-owner's /activation gets no answer and stays context for the next batch", async () => {
    const group = h.world.group("g-not-owner");
    await expectBatched(
      h,
      group,
      { sender: BOB, text: "/activation always" },
      { sender: BOB, text: "Chorus, did that work?" },
    );
    expect(botTexts(h.platform, group)).toEqual([`answer in ${group}`]);
    expect(
      (await readSessions(h.gateway.home))[`agent:main:memory:group:${group}`]?.settings.activation,
    ).toBeUndefined();
  });

  it("an owner's /activation always is persisted, shown by /status, and still in effect after a restart", async () => {
    const group = h.world.group("g-owner");
    const key = `agent:main:memory:group:${group}`;
    h.say(group, ANN, "/activation always");
    await botReply(h.platform, group, /^Activation is now always/);
    expect((await readSessions(h.gateway.home))[key]?.settings.activation).toBe("always");

    h.say(group, BOB, "/status");
    const status = (await botReply(h.platform, group, /^Chorus status/)).text;
    expect(status).toContain("Channel: Memory (memory, account default), group");
    expect(status).toContain(`Session: ${key}`);
    expect(status).toContain("Activation: always (set with /activation)");
    expect(status).toContain("Model: openai-compatible/fake-model");

    h.model.script({ text: "I read everything now." });
    h.say(group, BOB, "nobody mentions the bot here");
    await botReply(h.platform, group, "I read everything now.");
    const intro = systemOf(requestWith(h.model, "nobody mentions the bot here"));
    expect(intro).toContain("Activation: always-on");
    expect(h.model.requests.map(userOf).join("\n")).not.toMatch(/Ann: \/activation|Bob: \/status/);

    await h.restart();
    h.model.script({ text: "Still reading everything." });
    h.say(group, BOB, "after the restart, still no mention");
    await botReply(h.platform, group, "Still reading everything.");
    expect(userOf(requestWith(h.model, "after the restart"))).toBe(
      `Bob: after the restart, still no mention\n${BOB_FROM}`,
    );
  });
});

describe('`groups` defaults: "*" with requireMention false, an id with requireMention true', () => {
  const h = useGroupsGateway(() => ({
    memory: {
      groupPolicy: "open",
      groups: { "*": { requireMention: false }, "g-quiet": { requireMention: true }, "g-listed": { enabled: true } },
    },
    extra: { messages: { groupChat: { mentionPatterns: ["\\bbutler\\b"] } } },
  }));

  it('groups["*"].requireMention false wakes the agent on every message; NO_REPLY keeps it silent', async () => {
    for (const group of [h.world.group("g-star"), h.world.group("g-listed")]) {
      const before = h.model.requests.length;
      h.model.script({ text: "NO_REPLY" }, { text: `Four, in ${group}.` });
      h.say(group, BOB, "lovely weather today");
      h.say(group, BOB, "what is 2+2?");
      await botReply(h.platform, group, `Four, in ${group}.`);
      const [quiet, answered] = h.model.requests.slice(before);
      expect(userOf(quiet)).toBe(`Bob: lovely weather today\n${BOB_FROM}`);
      expect(systemOf(quiet)).toContain("Activation: always-on");
      expect(userOf(answered)).toBe(`Bob: what is 2+2?\n${BOB_FROM}`);
      expect(botTexts(h.platform, group)).toEqual([`Four, in ${group}.`]);
    }
  });

  it('groups.<id>.requireMention true wins over "*"; messages.groupChat.mentionPatterns is the fallback (the name no longer is)', async () => {
    const group = h.world.group("g-quiet");
    await expectBatched(
      h,
      group,
      { sender: BOB, text: "Chorus, are you there?" },
      { sender: BOB, text: "BUTLER, tea please" },
    );
  });
});

describe("unsafe mention patterns", () => {
  it.each([
    [
      "agents.list[0].groupChat.mentionPatterns[1]",
      { agents: { list: [{ id: "main", groupChat: { mentionPatterns: ["\\bchorus\\b", "(a+)+$"] } }] } },
    ],
    [
      "messages.groupChat.mentionPatterns[1]",
      { messages: { groupChat: { mentionPatterns: ["\\bchorus\\b", "(a+)+$"] } } },
    ],
  ])(
    "`chorus start` (and `chorus config check`) exit non-zero naming %s when a pattern can backtrack catastrophically",
    async (path, config) => {
      const home = await makeHome({ gateway: { port: 0 }, ...config });
      try {
        const run = await runChorus(["start"], { home });
        expect(run.started).toBe(false);
        expect(run.code).not.toBe(0);
        expect(run.stderr).toContain(path);
        expect(run.stderr).toContain('"(a+)+$"');
        expect(run.stderr).toContain("catastrophic backtracking");
        // `chorus config check` refuses it the same way, before anyone starts the gateway.
        const check = await runChorus(["config", "check"], { home });
        expect(check.code).not.toBe(0);
        expect(`${check.stdout}${check.stderr}`).toContain(`${path}: mention pattern "(a+)+$"`);
      } finally {
        await removeHome(home);
      }
    },
  );
});
