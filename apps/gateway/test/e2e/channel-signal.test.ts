import { fileURLToPath } from "node:url";
import { type FakeGroup, type FakePerson, FakeSignal } from "@chorus/channel-signal/testing";
import { eventually } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CONTEXT_MARKER,
  CURRENT_MARKER,
  createFakeOpenAI,
  type FakeOpenAI,
  fakeModelConfig,
} from "../../src/testing/index.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { readSessions, requestWith, systemOf, userOf } from "../support/groups-a-world.js";
import { runChorus } from "../support/loading-cli.js";

const PLUGIN = fileURLToPath(new URL("../../../../packages/channel-signal", import.meta.url));
const PATIENCE = { timeoutMs: 15_000 };
/** One number per reactionNotifications mode, each on its own daemon; `main` runs the group flow. */
const MODES = {
  own: {},
  off: { reactionNotifications: "off" },
  all: { reactionNotifications: "all" },
  allow: { reactionNotifications: "allowlist", reactionAllowlist: ["+1 555 000 3333"] },
} as const;
type Mode = keyof typeof MODES;

interface World {
  fake: FakeSignal;
  ann: FakePerson;
  bob: FakePerson;
  group: FakeGroup;
}

describe("Signal through the real gateway process", () => {
  const worlds = new Map<string, World>();
  let model: FakeOpenAI;
  let gateway: GatewayProcess;

  const world = (account: string) => worlds.get(account) as World;
  /** Waits for the bot's message `text` in the group of `account` and returns it. */
  const botSaid = (account: string, text: string) =>
    eventually(() => {
      const { fake, group } = world(account);
      const found = fake.sentTo(group.id).find((m) => m.text === text);
      expect(
        found,
        `bot message ${JSON.stringify(text)}; got ${JSON.stringify(fake.sentTo(group.id).map((m) => m.text))}`,
      ).toBeDefined();
      return found as NonNullable<typeof found>;
    }, PATIENCE);
  /** Ann mentions the bot (U+FFFC + mentions[]) in the group of `account`. */
  const mention = (account: string, text: string) => {
    const { fake, ann, group } = world(account);
    return fake.people.sends({ from: ann, group, text: `\uFFFC ${text}`, mentions: [fake.bot] });
  };

  beforeAll(async () => {
    model = await createFakeOpenAI({ apiKey: "sk-test" });
    const accounts: Record<string, Record<string, unknown>> = {};
    for (const [index, account] of ["main", ...Object.keys(MODES)].entries()) {
      const fake = new FakeSignal({ bot: { number: `+1555000100${index}`, name: "Chorus" } });
      await fake.start();
      const ann = fake.state.addPerson({ number: "+15550002222", name: "Ann" });
      const bob = fake.state.addPerson({ number: "+15550003333", name: "Bob" });
      const group = fake.state.addGroup({ name: `Team ${account}`, members: [ann, bob] });
      worlds.set(account, { fake, ann, bob, group });
      accounts[account] = {
        ...fake.config({ reconnectMinMs: 50, reconnectMaxMs: 500 }),
        ...(account in MODES ? MODES[account as Mode] : {}),
      };
    }
    gateway = await startGatewayProcess({
      config: {
        plugins: { load: [PLUGIN] },
        // No allowFrom: the owner is the bot's own number, writing from the phone.
        channels: { signal: { groupPolicy: "open", accounts } },
        agents: {
          list: [
            {
              id: "main",
              name: "Chorus",
              groupChat: { mentionPatterns: ["\\bchorus\\b"] },
              model: fakeModelConfig(model, { apiKey: "sk-test" }),
            },
          ],
        },
      },
    });
    // Each account listens on its daemon's event stream.
    await eventually(() => {
      for (const { fake } of worlds.values()) expect(fake.events.open).toBe(1);
    }, PATIENCE);
  }, 40_000);

  afterAll(async () => {
    await gateway?.stop();
    await model?.close();
    for (const { fake } of worlds.values()) await fake.close();
    if (gateway) await removeHome(gateway.home);
  });

  it("chorus channels shows each number linked and running, with no webhook", async () => {
    const run = await runChorus(["channels", "--url", gateway.url, "--token", gateway.token], { home: gateway.home });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /main: running \(linked as \+15550001000 \(Chorus\); events from http:\/\/127\.0\.0\.1:\d+\)/,
    );
    expect(run.stdout).toContain("reactions: singleSlot");
    // Signal's lines (up to the next channel's) list no webhook: events come from the daemon's stream.
    const signal = run.stdout.slice(run.stdout.indexOf("\nsignal ")).split(/\n(?=\S)/)[1] ?? "";
    expect(signal).toMatch(/^signal /);
    expect(signal).not.toContain("webhook");
  });

  it("an unmentioned message waits; a mention brings it, the reply quotes the trigger and the reaction lands", async () => {
    const { fake, ann, bob, group } = world("main");
    fake.people.sends({ from: bob, group, text: "Tacos on Friday?" });
    model.script(
      { toolCalls: [{ name: "message", arguments: { action: "react", emoji: "thumbsup" } }] },
      { text: "Tacos sound great, Ann." },
    );
    const trigger = mention("main", "what do you think of Bob's plan?");
    const reply = await botSaid("main", "Tacos sound great, Ann.");
    expect(reply.quote).toEqual({ timestamp: trigger.timestamp, author: ann.uuid });
    await eventually(() => expect(fake.botReactions(ann.uuid, trigger.timestamp)).toEqual(["👍"]), PATIENCE);
    // The ack (👀) came first; one slot, so the agent's 👍 replaced it.
    const reactions = fake.calls("sendReaction");
    expect(reactions.map((p) => `${p.remove ? "-" : "+"}${p.emoji}`)).toEqual(["+👀", "+👍"]);
    expect(reactions[1]).toMatchObject({
      groupId: group.id,
      targetAuthor: ann.uuid,
      targetTimestamp: trigger.timestamp,
    });
    const batch = userOf(requestWith(model, "what do you think of Bob's plan?"));
    expect(batch).toBe(
      [
        CONTEXT_MARKER,
        "Bob: Tacos on Friday?",
        "",
        CURRENT_MARKER,
        "Ann: @Chorus what do you think of Bob's plan?",
        "[from: Ann (+15550002222)]",
      ].join("\n"),
    );
    expect(systemOf(requestWith(model, "what do you think of Bob's plan?"))).toContain(
      `You are replying inside the Signal group "Team main"`,
    );
  });

  it("only the owner, writing from the phone, switches /activation", async () => {
    const { fake, bob, group } = world("main");
    const key = `agent:main:signal:group:${group.id}`;
    fake.people.sends({ from: bob, group, text: "/activation always" });
    model.script({ text: "Only the owner can switch that." });
    fake.people.sends({ from: bob, group, text: "chorus, did that work?" });
    await botSaid("main", "Only the owner can switch that.");
    expect((await readSessions(gateway.home))[key]?.settings.activation).toBeUndefined();

    const requests = model.requests.length;
    fake.people.ownerSends({ group, text: "/activation always" });
    await botSaid(
      "main",
      "Activation is now always: I read every message in this group and answer when I have something to add.",
    );
    expect((await readSessions(gateway.home))[key]?.settings.activation).toBe("always");
    expect(model.requests).toHaveLength(requests);
    // Always on: a message without a mention wakes the agent now.
    model.script({ text: "Noted." });
    fake.people.sends({ from: bob, group, text: "lovely weather today" });
    await botSaid("main", "Noted.");
  });

  // DESIGN §7, the reference case: which reactions people make reach the agent, per mode.
  it.each([
    ["own", (r: string) => [`👍 by Ann on msg ${r}`, `😂 by Bob on msg ${r}`]],
    ["off", () => []],
    ["all", (r: string, w: string) => [`👍 by Ann on msg ${r}`, `🎉 by Ann on msg ${w}`, `😂 by Bob on msg ${r}`]],
    ["allow", (r: string) => [`😂 by Bob on msg ${r}`]],
  ] as const)(
    "reactionNotifications %s: accepted reactions are system events of the next turn",
    async (account, expected) => {
      const { fake, ann, bob, group } = world(account);
      const wine = fake.people.sends({ from: bob, group, text: `I bring wine (${account})` });
      model.script({ text: `Great (${account}).` });
      mention(account, `party at 8 (${account})`);
      const reply = await botSaid(account, `Great (${account}).`);
      const mark = model.requests.length;
      fake.people.reacts({ from: ann, group, target: { author: fake.bot, timestamp: reply.timestamp }, emoji: "👍" });
      fake.people.reacts({ from: ann, group, target: { author: bob, timestamp: wine.timestamp }, emoji: "🎉" });
      fake.people.reacts({ from: bob, group, target: { author: fake.bot, timestamp: reply.timestamp }, emoji: "😂" });
      model.script({ text: `See you (${account}).` });
      mention(account, `who is in? (${account})`);
      await botSaid(account, `See you (${account}).`);
      // The reactions started no turn of their own.
      expect(model.requests).toHaveLength(mark + 1);
      const system = systemOf(requestWith(model, `who is in? (${account})`));
      const events = [...system.matchAll(/^- Signal reaction added: (.*)$/gm)].map((m) => m[1]);
      expect(events.sort()).toEqual(expected(String(reply.timestamp), String(wine.timestamp)).sort());
      if (expected("", "").length === 0) expect(system).not.toContain("System events");
    },
  );
});
