import type { InboundMessageEvent } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { parseConfig, resolveAgents } from "../config/index.js";
import { TranscriptStore } from "../sessions/index.js";
import type { GateDecision } from "./decide.js";
import { unstartedMemoryEntry, useGate } from "./decide.test.util.js";

const config = parseConfig({}, { env: {} });
const [agent] = resolveAgents(config);
/** A channel account whose groups are always-on and open to everyone. */
const entry = unstartedMemoryEntry({ groupPolicy: "open", groups: { "*": { requireMention: false } } });
const KEY = "agent:main:memory:group:g1";

const under = useGate(config, "chorus-gate-");
let seq = 0;

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
  const decision = await under.gate.decide({
    entry,
    event,
    agent: agent as NonNullable<typeof agent>,
    sessionKey: KEY,
    inboxId: seq,
    bot: undefined,
    store: under.store,
    transcripts: new TranscriptStore(under.state),
    summarise: async () => "",
  });
  // The router commits a decision's mark on the group's context with the message.
  if ((decision.kind === "run" || decision.kind === "echo") && decision.settle) {
    await under.state.db.tx(decision.settle);
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
