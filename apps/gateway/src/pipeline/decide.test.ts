import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redactor } from "@chorus/channel-kit";
import { type InboundMessageEvent, silentLogger } from "@chorus/core";
import { createMemoryChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PairingStore } from "../access/index.js";
import { accountKey, type ChannelEntry, ChannelSupervisor } from "../channels/index.js";
import { parseConfig, resolveAgents } from "../config/index.js";
import { SessionStore, TranscriptStore } from "../sessions/index.js";
import { openTestState, type TestState } from "../testing/index.js";
import { type GateDecision, MessageGate } from "./decide.js";

const config = parseConfig({}, { env: {} });
const [agent] = resolveAgents(config);
const plugin = createMemoryChannel();
/** A channel account whose groups are always-on and open to everyone; never started (the gate needs none). */
const entry: ChannelEntry = {
  plugin: plugin as never,
  capabilities: plugin.capabilities,
  accountId: "default",
  key: accountKey("memory", "default"),
  builtin: false,
  settings: { groupPolicy: "open", groups: { "*": { requireMention: false } } },
  supervisor: new ChannelSupervisor({
    plugin: plugin as never,
    accountId: "default",
    logger: silentLogger,
    context: () => {
      throw new Error("not started in this test");
    },
  }),
  redactor: new Redactor(),
};
const KEY = "agent:main:memory:group:g1";

let dir: string;
let test: TestState;
let gate: MessageGate;
let store: SessionStore;
let seq = 0;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-gate-"));
  test = await openTestState(undefined, dir);
  gate = new MessageGate({ config, state: test.state, pairing: await PairingStore.open(test.state) });
  store = await SessionStore.open(test.state, "main", dir);
});
afterEach(async () => {
  await store.flush();
  await test.close();
  await rm(dir, { recursive: true, force: true });
});

/** Bob writes `text` in group g1 without mentioning the bot. */
async function decide(text: string, sender = { id: "bob", name: "Bob" }): Promise<GateDecision> {
  seq++;
  const event: InboundMessageEvent = {
    type: "message",
    eventId: `e${seq}`,
    conversation: { id: "g1", kind: "group", title: "Family" },
    sender,
    text,
    mentions: { bot: false, others: [] },
    ref: { channel: "memory", accountId: "default", conversationId: "g1", messageId: `m${seq}` },
    timestamp: 1_700_000_000_000 + seq,
  };
  const decision = await gate.decide({
    entry,
    event,
    agent: agent as NonNullable<typeof agent>,
    sessionKey: KEY,
    inboxId: seq,
    bot: undefined,
    store,
    transcripts: new TranscriptStore(test.state),
    summarise: async () => "",
  });
  // The router commits a decision's mark on the group's context with the message.
  if ((decision.kind === "run" || decision.kind === "echo") && decision.settle) {
    await test.state.db.tx(decision.settle);
  }
  return decision;
}

describe("MessageGate in an always-on group", () => {
  it("answers the same text twice without a mention once (echo suppression)", async () => {
    expect((await decide("lol")).kind).toBe("run");
    expect((await decide("lol")).kind).toBe("echo");
  });

  it.each(["/new", "/reset"])(
    "%s forgets the echo memory: the same text right after is answered again",
    async (command) => {
      expect((await decide("lol")).kind).toBe("run");
      expect(await decide(command)).toMatchObject({
        kind: "command",
        reply: expect.stringMatching(/^Started a new session/),
      });
      expect((await decide("lol")).kind).toBe("run");
    },
  );
});
