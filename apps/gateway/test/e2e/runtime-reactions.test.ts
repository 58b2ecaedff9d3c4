import { eventually, faults } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeReply } from "../../src/testing/index.js";
import {
  type GroupsHarness,
  groupKey,
  type HarnessOptions,
  startHarness,
  systemText,
} from "../support/groups-b-harness.js";
import { offeredTool, reactionHistory, toolResults, turnOn } from "../support/groups-b-reactions.js";

/** One gateway process per describe block, started with `options`. */
function harness(options: HarnessOptions): () => GroupsHarness {
  let h: GroupsHarness | undefined;
  beforeAll(async () => {
    h = await startHarness(options);
  });
  afterAll(async () => {
    await h?.close();
  });
  return () => h as GroupsHarness;
}

const sorted = (list: string[]) => [...list].sort();

describe.each([
  { level: "off", canReact: false, ackPut: [], guidance: undefined },
  { level: "ack", canReact: false, ackPut: ["👀"], guidance: undefined },
  { level: "minimal", canReact: true, ackPut: ["👀", "👍"], guidance: "React sparingly" },
  { level: "extensive", canReact: true, ackPut: ["👀", "👍"], guidance: "React freely" },
])("channels.memory.reactionLevel: $level", ({ level, canReact, ackPut, guidance }) => {
  const h = harness({ memory: { reactionLevel: level } });

  it("shapes the tool and the system prompt, and refuses react where the agent may not react", async () => {
    const { platform, model } = h().world;
    const group = h().group("level");
    model.script(
      { toolCalls: [{ name: "message", arguments: { action: "react", emoji: "thumbsup" } }] },
      { text: "Noted." },
    );
    const trigger = await turnOn(h(), { conversationId: group, text: "@Chorus dinner at 7", mention: true, turns: 1 });
    expect(
      h()
        .botMessages(group)
        .map((m) => m.text),
    ).toEqual(["Noted."]);
    const [first, second] = model.requests;

    const tool = offeredTool(first);
    const [result] = toolResults(second);
    if (canReact) {
      expect(tool.actions).toEqual(expect.arrayContaining(["send", "react"]));
      expect(tool.params).toEqual(expect.arrayContaining(["emoji", "messageId", "trackToolCalls"]));
      expect(result).toMatchObject({ ok: true, action: "react", op: "add" });
    } else {
      expect(tool.actions).toEqual(["send"]);
      expect(tool.params).not.toContain("emoji");
      expect(result).toMatchObject({
        ok: false,
        error: { code: "E_DISABLED", message: `Reactions are disabled on Memory (reactionLevel: ${level}).` },
      });
    }
    if (guidance) expect(systemText(first)).toContain(guidance);
    else expect(systemText(first)).not.toContain("Reactions:");
    // off: no reactions at all; ack: only the runtime's ack, taken back; minimal/extensive: the agent's 👍 stays.
    expect(sorted(reactionHistory(h(), trigger.id).put)).toEqual(sorted(ackPut));
    expect(platform.botReactions(trigger.id)).toEqual(canReact ? ["👍"] : []);
  });

  it("does not limit the operator: POST /v1/tools/message reacts at this level too", async () => {
    const { platform } = h().world;
    const group = h().group("operator");
    const message = platform.userSends({ conversationId: group, senderId: "ann", text: "no mention" });
    const { status, json } = await h().gateway.call("POST", "/v1/tools/message", {
      channel: "memory",
      target: group,
      action: "react",
      messageId: message.id,
      emoji: "🎉",
    });
    expect({ status, json }).toMatchObject({ status: 200, json: { ok: true, result: { action: "react", op: "add" } } });
    expect(platform.botReactions(message.id)).toEqual(["🎉"]);
  });
});

describe("ack reaction (👀, scope group-mentions)", () => {
  const h = harness({ memory: { groups: { "*": {}, "ack-always": { requireMention: false } } } });

  it.each<{ name: string; id: string; reply: FakeReply; sent?: RegExp }>([
    { name: "a reply", id: "ack-reply", reply: { text: "Here you go." }, sent: /^Here you go\.$/ },
    { name: "NO_REPLY", id: "ack-silent", reply: { text: "NO_REPLY" } },
    {
      name: "a model error (500)",
      id: "ack-error",
      reply: { status: 500 },
      sent: /^⚠️ Chorus could not answer right now\./,
    },
  ])(
    "shows 👀 on the mentioned message while the model runs, and it is gone after $name",
    async ({ id, reply, sent }) => {
      const { platform, model } = h().world;
      const group = h().group(id);
      model.inject(faults.delay({ method: "POST" }, 800));
      model.script(reply);
      const trigger = platform.userSends({
        conversationId: group,
        senderId: "ann",
        text: "@Chorus ping",
        mentions: ["bot"],
      });
      await eventually(() => expect(platform.botReactions(trigger.id)).toEqual(["👀"]));
      await h().committed(groupKey(group), 1);
      expect(platform.botReactions(trigger.id)).toEqual([]);
      expect(reactionHistory(h(), trigger.id)).toEqual({ put: ["👀"], deleted: ["👀"] });
      const texts = h()
        .botMessages(group)
        .map((m) => m.text);
      if (sent) expect(texts).toEqual([expect.stringMatching(sent)]);
      else expect(texts).toEqual([]);
    },
  );

  it("does not ack a direct message or an unmentioned always-on group message", async () => {
    const dm = await turnOn(h(), {
      conversationId: h().dm("ack-dm"),
      text: "hi",
      sessionKey: "agent:main:memory:dm:ann",
      turns: 1,
    });
    const loud = await turnOn(h(), { conversationId: h().group("ack-always"), text: "nice weather", turns: 1 });
    expect(
      h()
        .botMessages("ack-dm")
        .map((m) => m.text),
    ).toEqual(["ok"]);
    for (const message of [dm, loud]) expect(reactionHistory(h(), message.id).put).toEqual([]);
  });
});

describe.each([
  { scope: "direct", after: "done", acked: { dm: true, mention: false, loud: false } },
  { scope: "all", after: "done", acked: { dm: true, mention: true, loud: true } },
  { scope: "off", after: "remove", acked: { dm: false, mention: false, loud: false } },
])("messages.ackReactionScope: $scope, ackReactionAfter: $after", ({ scope, after, acked }) => {
  const h = harness({
    memory: { groups: { "*": {}, "scope-loud": { requireMention: false } } },
    extra: { messages: { ackReactionScope: scope, ackReactionAfter: after } },
  });

  it("acks exactly the messages in scope and leaves ✅ where the ack is replaced when done", async () => {
    const messages = {
      dm: await turnOn(h(), {
        conversationId: h().dm("scope-dm"),
        text: "hi",
        sessionKey: "agent:main:memory:dm:ann",
        turns: 1,
      }),
      mention: await turnOn(h(), {
        conversationId: h().group("scope-group"),
        text: "@Chorus hi",
        mention: true,
        turns: 1,
      }),
      loud: await turnOn(h(), { conversationId: h().group("scope-loud"), senderId: "bob", text: "sunny", turns: 1 }),
    };
    for (const [kind, message] of Object.entries(messages)) {
      const isAcked = acked[kind as keyof typeof acked];
      const done = isAcked && after === "done";
      expect({ kind, final: h().world.platform.botReactions(message.id) }).toEqual({ kind, final: done ? ["✅"] : [] });
      expect({ kind, put: reactionHistory(h(), message.id).put }).toEqual({
        kind,
        put: isAcked ? (done ? ["👀", "✅"] : ["👀"]) : [],
      });
    }
  });
});

describe("status reactions (messages.statusReactions.enabled)", () => {
  const h = harness({ extra: { messages: { statusReactions: { enabled: true, debounceMs: 20 } } } });

  it.each<{ name: string; id: string; reply: FakeReply; final: string }>([
    { name: "a reply", id: "status-done", reply: { text: "All good." }, final: "✅" },
    { name: "a model error (500)", id: "status-error", reply: { status: 500 }, final: "❌" },
  ])(
    "go queued → thinking and end on the final state after $name, never stuck on 👀/🤔",
    async ({ id, reply, final }) => {
      const { platform, model } = h().world;
      const group = h().group(id);
      model.inject(faults.delay({ method: "POST" }, 600));
      model.script(reply);
      const trigger = platform.userSends({
        conversationId: group,
        senderId: "ann",
        text: "@Chorus check",
        mentions: ["bot"],
      });
      await eventually(() => expect(platform.botReactions(trigger.id)).toEqual(["🤔"]));
      await h().committed(groupKey(group), 1);
      expect(platform.botReactions(trigger.id)).toEqual([final]);
      const history = reactionHistory(h(), trigger.id);
      expect(history.put).toEqual(["👀", "🤔", final]);
      expect(history.deleted).toEqual(["👀", "🤔"]);
    },
  );

  it("trackToolCalls on the agent's react call moves the status to that message", async () => {
    const { platform, model } = h().world;
    const group = h().group("status-track");
    const earlier = platform.userSends({ conversationId: group, senderId: "bob", text: "Who brings the cake?" });
    model.script(
      {
        toolCalls: [
          { name: "message", arguments: { action: "react", messageId: earlier.id, emoji: "👍", trackToolCalls: true } },
        ],
      },
      { text: "Bob does." },
    );
    const trigger = await turnOn(h(), {
      conversationId: group,
      text: "@Chorus track it there",
      mention: true,
      turns: 1,
    });
    expect(sorted(platform.botReactions(earlier.id))).toEqual(sorted(["👍", "✅"]));
    expect(platform.botReactions(trigger.id)).toEqual([]);
    // The status started on the trigger and was taken away from it when the agent asked to track elsewhere.
    const onTrigger = reactionHistory(h(), trigger.id);
    expect(onTrigger.put[0]).toBe("👀");
    expect(sorted(onTrigger.deleted)).toEqual(sorted(onTrigger.put));
  });
});

const ADDED_ANN = (id: string) => `Memory reaction added: 👍 by Ann on msg ${id}`;
const PARTY_ANN = (id: string) => `Memory reaction added: 🎉 by Ann on msg ${id}`;
const LAUGH_BOB = (id: string) => `Memory reaction added: 😂 by Bob on msg ${id}`;
const REMOVED_ANN = (id: string) => `Memory reaction removed: 👍 by Ann on msg ${id}`;

describe.each([
  // r: the bot's reply (reacted to by Ann and Bob); m: Bob's message (Ann reacts to it).
  { mode: "own (default)", memory: {}, events: (r: string) => [LAUGH_BOB(r), REMOVED_ANN(r), ADDED_ANN(r)] },
  { mode: "off", memory: { reactionNotifications: "off" }, events: () => [] },
  {
    mode: "all",
    memory: { reactionNotifications: "all" },
    events: (r: string, m: string) => [PARTY_ANN(m), LAUGH_BOB(r), REMOVED_ANN(r), ADDED_ANN(r)],
  },
  {
    mode: "allowlist (Bob)",
    memory: { reactionNotifications: "allowlist", reactionAllowlist: ["+49 151 00000002"] },
    events: (r: string) => [LAUGH_BOB(r)],
  },
])("inbound reaction notifications: $mode", ({ memory, events: expected }) => {
  const h = harness({ memory });

  it("become deduplicated system events of the next turn, without starting a turn themselves", async () => {
    const { platform, model } = h().world;
    const group = h().group("notify");
    const wine = platform.userSends({ conversationId: group, senderId: "bob", text: "I bring wine" });
    model.script({ text: "Great." });
    platform.userSends({ conversationId: group, senderId: "ann", text: "@Chorus party at 8", mentions: ["bot"] });
    const reply = await h().botSays(group, "Great.");
    await h().committed(groupKey(group), 1);

    const mark = model.requests.length;
    platform.userReacts(reply.id, "ann", "👍");
    platform.userReacts(wine.id, "ann", "🎉");
    platform.userReacts(reply.id, "bob", "😂");
    platform.userUnreacts(reply.id, "ann", "👍");
    platform.userReacts(reply.id, "ann", "👍");
    model.script({ text: "See you." }, { text: "Bye." });
    platform.userSends({ conversationId: group, senderId: "ann", text: "@Chorus who is in?", mentions: ["bot"] });
    await h().botSays(group, "See you.");
    platform.userSends({ conversationId: group, senderId: "ann", text: "@Chorus bye", mentions: ["bot"] });
    await h().botSays(group, "Bye.");

    // One request per mention: the reactions started no turn.
    const [next, after] = h().requestsSince(mark);
    expect(h().requestsSince(mark)).toHaveLength(2);
    const events = expected(reply.id, wine.id);
    if (events.length === 0) expect(systemText(next)).not.toMatch(/System events|Memory reaction/);
    else
      expect(systemText(next)).toContain(
        `System events since your last reply:\n${events.map((e) => `- ${e}`).join("\n")}`,
      );
    expect(systemText(next).split(ADDED_ANN(reply.id)).length - 1).toBe(events.includes(ADDED_ANN(reply.id)) ? 1 : 0);
    // Handed out once: the turn after has none.
    expect(systemText(after)).not.toContain("System events");
  });
});
