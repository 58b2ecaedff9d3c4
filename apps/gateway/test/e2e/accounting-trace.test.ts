import type { WireEvent } from "@chorus/testkit";
import { eventually, waitFor } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { runChorus } from "../support/loading-cli.js";
import { createModelWorld, type ModelWorld } from "../support/memory-setup.js";
import { sample } from "../support/metrics-sample.js";
import { openEvents, type SseStream } from "../support/sse-client.js";
import { withStateDb } from "../support/state-db.js";

/** `chorus trace memory <id> --json`'s first message. */
// biome-ignore lint/suspicious/noExplicitAny: the CLI's JSON is checked field by field
async function trace(gateway: GatewayProcess, id: string): Promise<any> {
  const run = await runChorus(["trace", "memory", id, "--json"], { home: gateway.home });
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout).messages[0];
}

describe("every message accounted for: outcomes on the inbox row, `chorus trace`, operator events, /metrics", () => {
  let world: ModelWorld;
  let gateway: GatewayProcess;
  let operatorStream: SseStream;
  let agentStream: SseStream;
  const ids: Record<"blocked" | "buffered" | "turn", string> = { blocked: "", buffered: "", turn: "" };

  const operatorEvents = (outcome: string) => operatorStream.events.filter((e) => e.data.outcome === outcome);
  const statusOf = (messageId: string) =>
    withStateDb(gateway.home, undefined as string | undefined, (db) => {
      const row = db.prepare("SELECT status, outcome FROM inbox WHERE message_id = ?").get(messageId) as
        | { status: string; outcome: string | null }
        | undefined;
      return row?.outcome ?? undefined;
    });

  beforeAll(async () => {
    world = await createModelWorld();
    world.platform.addConversation({ id: "dm-bob", kind: "direct", members: [{ id: "bob", name: "Bob" }] });
    gateway = await startGatewayProcess({
      config: world.config({ memory: { dmPolicy: "allowlist", allowFrom: ["ann"] } }),
    });
    operatorStream = await openEvents(gateway.url, gateway.token, undefined, "operator=1");
    agentStream = await openEvents(gateway.url, gateway.token);
    await waitFor(() => operatorStream.events.length > 0 && agentStream.events.length > 0, {
      message: "both streams' ready events",
    });

    // Bob is not in allowFrom: blocked by a rule.
    ids.blocked = world.platform.userSends({ conversationId: "dm-bob", senderId: "bob", text: "let me in" }).id;
    // A group message without a mention: kept as context.
    ids.buffered = world.platform.userSends({
      conversationId: "family",
      senderId: "ann",
      text: "the train is late",
    }).id;
    // Ann's direct message: a turn, replied.
    world.model.script({ text: "We eat at seven." });
    ids.turn = world.platform.userSends({ conversationId: "dm-ann", senderId: "ann", text: "when do we eat?" }).id;
    await eventually(() =>
      expect(world.platform.messagesIn("dm-ann").map((m) => m.text)).toContain("We eat at seven."),
    );
    await eventually(() =>
      expect([statusOf(ids.blocked), statusOf(ids.buffered), statusOf(ids.turn)]).toEqual([
        "blocked",
        "buffered",
        "replied",
      ]),
    );

    // The platform delivers Ann's message again (a lost acknowledgement), then something no one can read.
    const annEvent = world.platform.state.events.find(
      (e: WireEvent) => e.type === "message" && e.message.id === ids.turn,
    ) as WireEvent;
    world.platform.redeliver(annEvent.id);
    await waitFor(() => operatorEvents("duplicate").length === 1, { message: "the redelivery's operator event" });
    world.platform.deliverRaw({ id: "evt-broken", type: "message", message: { id: 42 } });
    await waitFor(() => operatorEvents("unreadable").length === 1, {
      message: "the unreadable delivery's operator event",
    });
  }, 60_000);

  afterAll(async () => {
    operatorStream?.close();
    agentStream?.close();
    await gateway?.stop();
    await world?.close();
    if (gateway) await removeHome(gateway.home);
  });

  it("a blocked message: its rule in the trace and in an operator event", async () => {
    const blocked = await trace(gateway, ids.blocked);
    expect(blocked).toMatchObject({
      channel: "memory",
      account: "default",
      messageId: ids.blocked,
      kind: "message",
      from: { id: "bob", name: "Bob" },
      conversation: { id: "dm-bob", kind: "direct" },
      text: "let me in",
      status: "done",
      outcome: {
        outcome: "blocked",
        reason: 'sender bob (Bob) is not in channels.memory.allowFrom (dmPolicy "allowlist")',
      },
      redeliveries: 0,
      replies: [],
    });
    expect(operatorEvents("blocked")).toEqual([
      {
        data: expect.objectContaining({
          type: "operator",
          outcome: "blocked",
          channel: "memory",
          account: "default",
          messageId: ids.blocked,
          conversationId: "dm-bob",
          senderId: "bob",
          inboxId: String(blocked.inboxId),
          reason: blocked.outcome.reason,
        }),
      },
    ]);
  });

  it("a buffered group message: kept as context, and why", async () => {
    expect(await trace(gateway, ids.buffered)).toMatchObject({
      conversation: { id: "family", kind: "group", title: "Family" },
      status: "buffered",
      outcome: { outcome: "buffered", reason: "not mentioned" },
      replies: [],
    });
  });

  it("a turn: its model time and outcome, the reply sent with the platform's id; the redelivery counted on the row", async () => {
    const turn = await trace(gateway, ids.turn);
    const reply = world.platform.messagesIn("dm-ann").find((m) => m.text === "We eat at seven.");
    expect(turn).toMatchObject({
      status: "done",
      outcome: { outcome: "replied", agent: "main", provider: "openai-compatible" },
      redeliveries: 1,
      // Ann is in allowFrom, an owner: her direct chats share the main session (session.dmScope owner-main).
      sessionKey: "agent:main:main",
      replies: [{ status: "sent", text: "We eat at seven.", platformId: reply?.id, attempts: 1 }],
    });
    expect(turn.outcome.modelMs).toBeGreaterThanOrEqual(0);
    expect(turn.outcome.turnMs).toBeGreaterThanOrEqual(turn.outcome.modelMs);
    expect(Date.parse(turn.lastRedeliveryAt)).toBeGreaterThanOrEqual(Date.parse(turn.receivedAt));
    expect(operatorEvents("duplicate")[0]?.data).toMatchObject({
      type: "operator",
      channel: "memory",
      messageId: ids.turn,
      reason: expect.stringContaining("dropped by the dedupe"),
    });

    // The same, for a person: one line per step.
    const human = await runChorus(["trace", "memory", ids.turn], { home: gateway.home });
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain(`memory (default): message ${ids.turn}`);
    expect(human.stdout).toMatch(
      /received {4}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d\d:\d\d from Ann \(ann\) in a direct chat \(dm-ann\)/,
    );
    expect(human.stdout).toContain("redelivered once, each dropped by the dedupe");
    expect(human.stdout).toMatch(
      /decision {4}a turn ran: replied \(agent main, openai-compatible, model \d+\.\d\d s, turn \d+\.\d\d s\)/,
    );
    expect(human.stdout).toMatch(
      new RegExp(`reply \\d+ +sent .* as message ${reply?.id} \\(1 attempt\\): "We eat at seven\\."`),
    );
  });

  it("an unknown id says so and where it looked, exit 1", async () => {
    const run = await runChorus(["trace", "memory", "no-such-message"], { home: gateway.home });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      'No inbound message or event "no-such-message" on channel memory: looked in the inbox of',
    );
    expect(run.stdout).toContain(
      "chorus.db (message ids and event ids of channel memory; handled events are kept 7 days)",
    );
  });

  it("an unreadable delivery is counted and said to the operator; agents see no operator event", async () => {
    expect(operatorEvents("unreadable")[0]?.data).toMatchObject({
      type: "operator",
      channel: "memory",
      account: "default",
      reason: expect.stringContaining("is unreadable"),
    });
    expect(agentStream.events.filter((e) => e.data.type === "operator")).toEqual([]);
    // The agent's stream shows what passes the access rules: Ann's messages, not Bob's.
    const texts = agentStream.events.filter((e) => e.data.type === "message").map((e) => e.data.text);
    expect(texts).toEqual(["the train is late", "when do we eat?"]);
  });

  it("/metrics counts all of it, behind the token", async () => {
    const unauthorized = await fetch(`${gateway.url}/metrics`);
    expect(unauthorized.status).toBe(401);
    const response = await fetch(`${gateway.url}/metrics`, { headers: { authorization: `Bearer ${gateway.token}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain; version=0.0.4");
    const text = await response.text();
    const inbound = (outcome: string) =>
      sample(text, `chorus_inbound_events_total{channel="memory",account="default",outcome="${outcome}"}`);
    const handled = (outcome: string) =>
      sample(text, `chorus_inbound_handled_total{channel="memory",account="default",outcome="${outcome}"}`);
    expect([inbound("committed"), inbound("duplicate"), inbound("unreadable"), inbound("refused")]).toEqual([
      3,
      1,
      1,
      undefined,
    ]);
    expect([handled("blocked"), handled("buffered"), handled("replied")]).toEqual([1, 1, 1]);
    expect(sample(text, 'chorus_turns_started_total{agent="main",channel="memory"}')).toBe(1);
    expect(sample(text, 'chorus_turns_finished_total{agent="main",channel="memory",outcome="replied"}')).toBe(1);
    expect(sample(text, 'chorus_turn_duration_seconds_count{agent="main",outcome="replied"}')).toBe(1);
    expect(sample(text, 'chorus_model_latency_seconds_count{agent="main",provider="openai-compatible"}')).toBe(1);
    expect(sample(text, 'chorus_replies_sent_total{channel="memory"}')).toBe(1);
    expect(sample(text, "chorus_outbox_pending")).toBe(0);
    expect(sample(text, "chorus_inbox_backlog")).toBe(0);
    expect(sample(text, 'chorus_channel_account_state{channel="memory",account="default",state="running"}')).toBe(1);
    expect(sample(text, 'chorus_media_bytes_total{channel="memory",direction="in"}')).toBe(0);
    expect(sample(text, "chorus_ready")).toBe(1);
    expect(text).not.toContain(gateway.token);
    // No conversation, person or message is a label.
    for (const word of ["dm-ann", "family", "ann", "bob", ids.turn]) expect(text).not.toContain(`"${word}"`);
  });
});
