import { eventually } from "@chorus/testkit";
import { describe, expect, it } from "vitest";
import { type GroupsHarness, useGroupsGateway } from "../support/groups-a-gateway.js";
import {
  ANN,
  BOB,
  botReply,
  botTexts,
  chatOf,
  logLines,
  readSessions,
  readTranscript,
  requestWith,
  sessionAfter,
  systemOf,
  userOf,
} from "../support/groups-a-world.js";

const ANN_FROM = "[from: Ann (+4915100000001)]";
const groupKey = (id: string) => `agent:main:memory:group:${id}`;
const OPEN = { memory: { dmPolicy: "open", groupPolicy: "open" } };

/** Ann mentions the bot in `group` with `text`; waits for the scripted `answer` and returns the request. */
async function turn(h: GroupsHarness, group: string, text: string, answer: string) {
  h.model.script({ text: answer });
  h.say(group, ANN, text, { mentions: ["bot"] });
  await botReply(h.platform, group, answer);
  return requestWith(h.model, text);
}

/** Ann sends a command alone; waits for the `count`-th reply matching `reply`. */
async function command(h: GroupsHarness, group: string, text: string, reply: RegExp, count = 1) {
  h.say(group, ANN, text);
  await eventually(() => expect(botTexts(h.platform, group).filter((t) => reply.test(t))).toHaveLength(count), {
    timeoutMs: 15_000,
  });
}

/** No request ever carried a command as a chat line. */
function expectNoCommandSent(h: GroupsHarness): void {
  const chat = h.model.requests.flatMap((r) => chatOf(r).map(([, text]) => text)).join("\n");
  expect(chat).not.toMatch(/\/(verbose|think|new|reset|compact)\b/);
}

describe("group sessions and per-session commands (dmScope main)", () => {
  const h = useGroupsGateway(() => ({ ...OPEN, extra: { session: { dmScope: "main" } } }));

  it("a group's session appears in sessions.json after its first run, not after buffered messages", async () => {
    const group = h.world.group("g-key");
    h.say(group, ANN, "nobody asked the bot yet");
    await logLines(h.gateway, "buffered group message as context", { from: group });
    expect((await readSessions(h.gateway.home))[groupKey(group)]).toBeUndefined();
    await turn(h, group, "now I ask you", "Asked and answered.");
    expect(await sessionAfter(h.gateway.home, groupKey(group), 1)).toMatchObject({
      chatType: "group",
      channel: "memory",
      conversationId: group,
    });
  });

  it("with dmScope main every direct chat shares agent:main:main", async () => {
    const annDm = h.world.direct("dm-ann-main", ANN);
    const bobDm = h.world.direct("dm-bob-main", BOB);
    h.model.script({ text: "Hello Ann." }, { text: "Hello Bob." });
    h.say(annDm, ANN, "ann writes first");
    await botReply(h.platform, annDm, "Hello Ann.");
    h.say(bobDm, BOB, "bob writes second");
    await botReply(h.platform, bobDm, "Hello Bob.");
    expect(chatOf(requestWith(h.model, "bob writes second"))).toEqual([
      ["user", "ann writes first"],
      ["assistant", "Hello Ann."],
      ["user", "bob writes second"],
    ]);
    await sessionAfter(h.gateway.home, "agent:main:main", 2);
    expect(Object.keys(await readSessions(h.gateway.home)).filter((k) => k.includes(":dm:"))).toEqual([]);
  });

  it("/verbose on shows the turn's tool calls before the reply, in that session only", async () => {
    const [loud, quiet] = [h.world.group("g-verbose"), h.world.group("g-plain")];
    await command(h, loud, "/verbose on", /^Verbose is on for this session\.$/);
    for (const group of [loud, quiet]) {
      h.model.script({ toolCalls: [{ name: "message", arguments: { action: "react", emoji: "thumbsup" } }] });
      await turn(h, group, `react to this in ${group}`, `Reacted in ${group}.`);
    }
    expect(botTexts(h.platform, loud).slice(1)).toEqual(["🛠 message react thumbsup → ok", `Reacted in ${loud}.`]);
    expect(botTexts(h.platform, quiet)).toEqual([`Reacted in ${quiet}.`]);
    expect((await readSessions(h.gateway.home))[groupKey(loud)]?.settings.verbose).toBe(true);
    expectNoCommandSent(h);
  });

  it("/think high is stored for the session and the system prompt carries it", async () => {
    const [deep, plain] = [h.world.group("g-think"), h.world.group("g-no-think")];
    await command(h, deep, "/think high", /^Thinking level for this session is now high\.$/);
    expect((await readSessions(h.gateway.home))[groupKey(deep)]?.settings.think).toBe("high");
    const thought = await turn(h, deep, "think hard about this", "Thought hard.");
    expect(systemOf(thought)).toContain("Thinking level: high.");
    const other = await turn(h, plain, "no need to think", "Did not think.");
    expect(systemOf(other)).not.toContain("Thinking level");
    expectNoCommandSent(h);
  });

  it("/new and /reset start a new sessionId whose turns carry no earlier history", async () => {
    const group = h.world.group("g-new");
    const untouched = (await readSessions(h.gateway.home))[groupKey("g-key")]?.sessionId;
    await turn(h, group, "remember the colour blue", "Blue, noted.");
    const ids = [(await sessionAfter(h.gateway.home, groupKey(group), 1)).sessionId];
    for (const [index, word] of ["/new", "/reset"].entries()) {
      await command(h, group, word, /^Started a new session/, index + 1);
      await eventually(async () => {
        const id = (await readSessions(h.gateway.home))[groupKey(group)]?.sessionId;
        expect(ids).not.toContain(id);
        ids.push(id as string);
      });
      const asked = `which colour, after ${word.slice(1)}?`;
      const fresh = await turn(h, group, asked, `No idea after ${word.slice(1)}.`);
      // Only the new message: nothing from the earlier session, and the group intro again.
      expect(chatOf(fresh)).toEqual([["user", `Ann: ${asked}\n${ANN_FROM}`]]);
      expect(systemOf(fresh)).toContain("You are replying inside the Memory group");
    }
    expect(new Set(ids).size).toBe(3);
    expect((await readSessions(h.gateway.home))[groupKey("g-key")]?.sessionId).toBe(untouched);
    expectNoCommandSent(h);
  });

  it("/compact has the model summarise, leaves one system entry, and the next system prompt carries it", async () => {
    const group = h.world.group("g-compact");
    await turn(h, group, "I like tea", "Tea, noted.");
    await turn(h, group, "and coffee on Mondays", "Coffee, noted.");
    const { sessionId } = await sessionAfter(h.gateway.home, groupKey(group), 2);
    const summary = "Ann likes tea, and coffee on Mondays.";
    h.model.script({ text: summary });
    await command(h, group, "/compact", /^Compacted this session: 4 entries replaced by a summary of 37 characters\.$/);

    const asked = h.model.requests.find((r) => systemOf(r).startsWith("Summarise the conversation below"));
    expect(userOf(asked)).toContain("Ann: Ann: I like tea");
    expect(userOf(asked)).toContain("Chorus: Coffee, noted.");
    expect(await readTranscript(h.gateway.home, sessionId)).toEqual([
      { at: expect.any(String), role: "system", content: summary },
    ]);

    const next = await turn(h, group, "what do I drink?", "Tea, and coffee on Mondays.");
    expect(systemOf(next)).toContain(`Summary of the conversation so far:\n${summary}`);
    expect(chatOf(next)).toEqual([["user", `Ann: what do I drink?\n${ANN_FROM}`]]);
    expectNoCommandSent(h);
  });
});

describe("direct sessions with dmScope per-peer", () => {
  const h = useGroupsGateway(() => ({ ...OPEN, extra: { session: { dmScope: "per-peer" } } }));

  it("each sender gets agent:main:memory:dm:<sender>, with only their own history", async () => {
    const annDm = h.world.direct("dm-ann-peer", ANN);
    const bobDm = h.world.direct("dm-bob-peer", BOB);
    h.model.script({ text: "Hello Ann." }, { text: "Hello Bob." });
    h.say(annDm, ANN, "ann alone");
    await botReply(h.platform, annDm, "Hello Ann.");
    h.say(bobDm, BOB, "bob alone");
    await botReply(h.platform, bobDm, "Hello Bob.");
    expect(chatOf(requestWith(h.model, "bob alone"))).toEqual([["user", "bob alone"]]);
    await sessionAfter(h.gateway.home, "agent:main:memory:dm:ann", 1);
    await sessionAfter(h.gateway.home, "agent:main:memory:dm:bob", 1);
    expect((await readSessions(h.gateway.home))["agent:main:main"]).toBeUndefined();
  });
});

describe("direct sessions by default (dmScope owner-main): different people never share one", () => {
  // Ann is the owner by name; Bob is let in by dmPolicy open, as anyone else would be.
  const h = useGroupsGateway(() => ({ memory: { dmPolicy: "open", groupPolicy: "open", allowFrom: [ANN.id] } }));

  it("Bob gets his own session and never sees what Ann said; the owner's DMs share the main session", async () => {
    const annDm = h.world.direct("dm-ann-default", ANN);
    const bobDm = h.world.direct("dm-bob-default", BOB);
    h.model.script({ text: "Noted, Ann." }, { text: "Hi Bob." });
    h.say(annDm, ANN, "my door code is 4711");
    await botReply(h.platform, annDm, "Noted, Ann.");
    h.say(bobDm, BOB, "what did Ann tell you?");
    await botReply(h.platform, bobDm, "Hi Bob.");
    expect(chatOf(requestWith(h.model, "what did Ann tell you?"))).toEqual([["user", "what did Ann tell you?"]]);
    expect(JSON.stringify(requestWith(h.model, "what did Ann tell you?"))).not.toContain("4711");
    await sessionAfter(h.gateway.home, "agent:main:main", 1);
    await sessionAfter(h.gateway.home, `agent:main:memory:dm:${BOB.id}`, 1);
  });
});
