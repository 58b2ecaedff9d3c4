import { describe, expect, it } from "vitest";
import { CONTEXT_MARKER, CURRENT_MARKER } from "../../src/testing/index.js";
import { useGroupsGateway } from "../support/groups-a-gateway.js";
import {
  ANN,
  BOB,
  botReply,
  botTexts,
  everythingSent,
  logLines,
  requestWith,
  userOf,
} from "../support/groups-a-world.js";
import { runChorus } from "../support/loading-cli.js";

const BLOCKED = "blocked inbound message";
/** pino's number for `debug`. */
const DEBUG = 20;

describe("access defaults: dmPolicy pairing, groupPolicy allowlist", () => {
  const h = useGroupsGateway(() => ({}));

  it("an unknown DM sender gets one pairing code and no model call; `chorus pairing approve` lets the next message through", async () => {
    const dm = h.world.direct("dm-pair", ANN);
    const before = h.model.requests.length;
    h.say(dm, ANN, "hello, who are you?");
    const codeReply = await botReply(h.platform, dm, /pairing code is [A-Z0-9]{6}/);
    const code = (/pairing code is ([A-Z0-9]{6})/.exec(codeReply.text) as RegExpExecArray)[1] as string;
    expect(codeReply.text).toContain(`chorus pairing approve ${code}`);
    h.say(dm, ANN, "hello again?");
    const [first] = await logLines(h.gateway, BLOCKED, { from: dm }, 2);
    expect(first).toMatchObject({ level: DEBUG, sender: "ann", sessionKey: "agent:main:memory:dm:ann" });
    expect(first?.reason).toMatch(/sender ann \(Ann\) is not paired \(dmPolicy "pairing"\)/);

    const approved = await runChorus(["pairing", "approve", code.toLowerCase()], { home: h.gateway.home });
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain("Approved");

    h.model.script({ text: "Welcome, Ann." });
    h.say(dm, ANN, "may I talk to you now?");
    await botReply(h.platform, dm, "Welcome, Ann.");
    // The second message got no second code, and neither blocked message reached the model.
    expect(botTexts(h.platform, dm)).toEqual([codeReply.text, "Welcome, Ann."]);
    expect(h.model.requests.slice(before).map(userOf)).toEqual(["may I talk to you now?"]);
  });

  it("a group is dropped when neither groupAllowFrom nor allowFrom is set; the reason is logged at debug", async () => {
    const group = h.world.group("g-default");
    const before = h.model.requests.length;
    h.say(group, ANN, "Chorus, are you in this group?", { mentions: ["bot"] });
    const [line] = await logLines(h.gateway, BLOCKED, { from: group });
    expect(line).toMatchObject({
      level: DEBUG,
      channel: "memory",
      sender: "ann",
      sessionKey: `agent:main:memory:group:${group}`,
    });
    expect(line?.reason).toMatch(
      /channels\.memory\.groupPolicy is "allowlist" but neither groupAllowFrom nor allowFrom is set/,
    );
    expect(botTexts(h.platform, group)).toEqual([]);
    expect(h.model.requests.length).toBe(before);
  });
});

describe("dmPolicy allowlist with a formatted number; groups fall back to allowFrom", () => {
  const h = useGroupsGateway(() => ({ memory: { dmPolicy: "allowlist", allowFrom: ["+49 151-0000 0001"] } }));

  it("an E.164 in allowFrom written with spaces and dashes lets Ann's DMs through; Bob's are dropped", async () => {
    const annDm = h.world.direct("dm-ann-allow", ANN);
    const bobDm = h.world.direct("dm-bob-allow", BOB);
    h.model.script({ text: "Hi Ann, you are on the list." });
    h.say(bobDm, BOB, "bob would like a word");
    h.say(annDm, ANN, "ann would like a word");
    await botReply(h.platform, annDm, "Hi Ann, you are on the list.");
    const [line] = await logLines(h.gateway, BLOCKED, { from: bobDm });
    expect(line?.reason).toBe('sender bob (Bob) is not in channels.memory.allowFrom (dmPolicy "allowlist")');
    expect(botTexts(h.platform, bobDm)).toEqual([]);
    expect(everythingSent(h.model)).not.toContain("bob would like a word");
  });

  it("groupAllowFrom falls back to an explicit allowFrom: Bob's group messages are dropped and never become context", async () => {
    const group = h.world.group("g-fallback");
    h.say(group, BOB, "Chorus, here is bob's secret plan", { mentions: ["bot"] });
    h.say(group, ANN, "just some context from ann");
    h.say(group, BOB, "and more from bob");
    h.model.script({ text: "You said context." });
    h.say(group, ANN, "Chorus, what did I say?", { mentions: ["bot"] });
    await botReply(h.platform, group, "You said context.");
    expect(userOf(requestWith(h.model, "what did I say?"))).toBe(
      [
        CONTEXT_MARKER,
        "Ann: just some context from ann",
        "",
        CURRENT_MARKER,
        "Ann: Chorus, what did I say?",
        "[from: Ann (+4915100000001)]",
      ].join("\n"),
    );
    const lines = await logLines(h.gateway, BLOCKED, { from: group, sender: "bob" }, 2);
    expect(lines[0]?.reason).toBe(
      'sender bob (Bob) is not in channels.memory.allowFrom (groupPolicy "allowlist", used because groupAllowFrom is not set)',
    );
    expect(everythingSent(h.model)).not.toMatch(/secret plan|more from bob/);
  });
});

describe("dmPolicy disabled; `groups` listing one id", () => {
  const h = useGroupsGateway(() => ({
    memory: { dmPolicy: "disabled", groupPolicy: "open", groups: { "g-listed": {} } },
  }));

  it("dmPolicy disabled drops every direct message, with the reason logged", async () => {
    const dm = h.world.direct("dm-off", ANN);
    const before = h.model.requests.length;
    h.say(dm, ANN, "anyone home?");
    const [line] = await logLines(h.gateway, BLOCKED, { from: dm });
    expect(line).toMatchObject({
      level: DEBUG,
      reason: 'direct messages are off: channels.memory.dmPolicy is "disabled"',
    });
    expect(botTexts(h.platform, dm)).toEqual([]);
    expect(h.model.requests.length).toBe(before);
  });

  it("`groups` with an explicit id is the group allowlist: that group is answered, any other is dropped", async () => {
    const listed = h.world.group("g-listed");
    const before = h.model.requests.length;
    // "constructor" is a key of every object: it must not count as listed.
    const others = [h.world.group("g-unlisted"), h.world.group("constructor")];
    for (const other of others) h.say(other, ANN, `Chorus, hello from ${other}`, { mentions: ["bot"] });
    h.model.script({ text: "Hello, listed group." });
    h.say(listed, ANN, "Chorus, hello from the listed group", { mentions: ["bot"] });
    await botReply(h.platform, listed, "Hello, listed group.");
    for (const other of others) {
      const [line] = await logLines(h.gateway, BLOCKED, { from: other });
      expect(line?.reason).toBe(`group ${other} is not in channels.memory.groups (add "${other}" or "*" to allow it)`);
      expect(botTexts(h.platform, other)).toEqual([]);
    }
    expect(h.model.requests.slice(before).map(userOf)).toEqual([
      `Ann: Chorus, hello from the listed group\n[from: Ann (+4915100000001)]`,
    ]);
  });
});

describe('`groups: { "*" }` with groupAllowFrom and allowFrom', () => {
  const h = useGroupsGateway(() => ({
    memory: { groups: { "*": {} }, allowFrom: [ANN.phone], groupAllowFrom: [BOB.phone] },
  }));

  it('"*" allows any group, and groupAllowFrom (not allowFrom) picks who may write there', async () => {
    for (const group of [h.world.group("g-any-1"), h.world.group("g-any-2")]) {
      h.say(group, ANN, `Chorus, ann in ${group}`, { mentions: ["bot"] });
      h.model.script({ text: `Hi Bob in ${group}.` });
      h.say(group, BOB, `Chorus, bob in ${group}`, { mentions: ["bot"] });
      await botReply(h.platform, group, `Hi Bob in ${group}.`);
      const [line] = await logLines(h.gateway, BLOCKED, { from: group });
      expect(line?.reason).toBe('sender ann (Ann) is not in channels.memory.groupAllowFrom (groupPolicy "allowlist")');
      expect(userOf(requestWith(h.model, `bob in ${group}`))).toBe(
        `Bob: Chorus, bob in ${group}\n[from: Bob (+4915100000002)]`,
      );
    }
    expect(everythingSent(h.model)).not.toContain("ann in g-any");
  });
});
