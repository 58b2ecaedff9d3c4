import type { WireMessage } from "@chorus/testkit";
import { eventually, waitFor } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { committedTurns, readSessionsOnDisk, readTranscriptOnDisk } from "../support/faults-state.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { createModelWorld, type ModelWorld } from "../support/memory-setup.js";
import { readSessionsFromState } from "../support/state-db.js";

const GROUPS = Array.from({ length: 10 }, (_, i) => `g${i}`);
const keyOf = (group: string) => `agent:main:memory:group:${group}`;

describe("the gateway is killed with SIGKILL during a burst of turns", () => {
  let world: ModelWorld | undefined;
  let gateway: GatewayProcess | undefined;
  let home: string | undefined;
  afterEach(async () => {
    await gateway?.stop("SIGKILL");
    await world?.close();
    if (home) await removeHome(home);
  });

  it("restarts with every committed turn, answers every message received before and during the kill, and answers new ones", async () => {
    world = await createModelWorld();
    const { platform, model } = world;
    for (const [i, id] of GROUPS.entries()) {
      platform.addConversation({
        id,
        kind: "group",
        title: `Group ${i}`,
        members: [{ id: `u${i}`, name: `User ${i}` }],
      });
    }
    // Every answer takes 250 ms, four turns at a time: the burst is still running when the kill comes.
    model.inject({ kind: "delay", ms: 250, times: Number.POSITIVE_INFINITY });
    const config = world.config();
    gateway = await startGatewayProcess({ config });
    home = gateway.home;
    const wave = (n: number) =>
      GROUPS.map((id, i) =>
        platform.userSends({ conversationId: id, senderId: `u${i}`, text: `Chorus, wave ${n} in ${id}` }),
      );
    const committedAtLeast = (turns: number) =>
      // The database, not the mirror: sessions.json trails it by up to seconds on a loaded machine.
      waitFor(() => committedTurns(readSessionsFromState(home as string)) >= turns, {
        timeoutMs: 15_000,
        intervalMs: 20,
        message: `${turns} committed turns in the state database`,
      });
    const repliesTo = (message: WireMessage) =>
      platform.messagesIn(message.conversationId).filter((m) => m.senderId === "bot" && m.replyTo?.id === message.id);

    const sent = [...wave(1)];
    await committedAtLeast(4);
    sent.push(...wave(2));
    await committedAtLeast(12);
    const before = await readSessionsOnDisk(home);
    const exit = await gateway.stop("SIGKILL");
    expect(exit).toBeNull();
    expect(gateway.process.signalCode).toBe("SIGKILL");
    // The kill came mid-burst: some of the first 20 messages had no answer yet.
    expect(sent.filter((m) => repliesTo(m).length > 0).length).toBeLessThan(sent.length);
    const whileDead = wave(3);
    sent.push(...whileDead);

    // The mirror (sessions.json) is valid and never ahead of the database, the source of truth.
    const mirror = await readSessionsOnDisk(home);
    const onDisk = readSessionsFromState(home);
    for (const [key, entry] of Object.entries(before)) {
      expect(onDisk[key]).toMatchObject({ sessionId: entry.sessionId });
      expect(onDisk[key]?.turns).toBeGreaterThanOrEqual(entry.turns);
    }
    for (const [key, entry] of Object.entries(mirror)) expect(onDisk[key]?.turns).toBeGreaterThanOrEqual(entry.turns);
    for (const entry of Object.values(onDisk)) {
      const { turns } = await readTranscriptOnDisk(home, entry.sessionId);
      // A turn is committed in one transaction: the count and the transcript agree exactly.
      expect(turns.length).toBe(entry.turns);
      for (const turn of turns) {
        const question = sent.find((m) => m.id === turn.user.messageId) as WireMessage;
        expect(question).toMatchObject({ conversationId: entry.conversationId });
        // Group turns carry the batch: the question, then the [from: …] line.
        expect(turn.user.content).toContain(question.text);
        // A reply is recorded before it is sent: its id is there once it was sent and marked.
        if (turn.assistant.messageId) expect(repliesTo(question).map((m) => m.id)).toContain(turn.assistant.messageId);
      }
    }

    gateway = await startGatewayProcess({ home, config });
    // Every message is answered after the restart, also those whose turn the kill cut short; a
    // second answer only where the kill came between a send and its "sent" mark (at most the
    // turns running at once).
    await eventually(() => expect(sent.filter((m) => repliesTo(m).length === 0).map((m) => m.text)).toEqual([]), {
      timeoutMs: 15_000,
    });
    const duplicates = sent.reduce((n, m) => n + Math.max(0, repliesTo(m).length - 1), 0);
    expect(duplicates).toBeLessThanOrEqual(4);
    // Each session's turn count is its number of answered messages, in the database and the mirror.
    await eventually(
      async () => {
        const now = readSessionsFromState(home as string);
        const mirrored = await readSessionsOnDisk(home as string);
        for (const group of GROUPS) {
          const answered = sent.filter((m) => m.conversationId === group).length;
          expect(now[keyOf(group)]?.turns).toBe(answered);
          expect(mirrored[keyOf(group)]?.turns).toBe(answered);
        }
      },
      { timeoutMs: 15_000 },
    );
    expect(gateway.process.exitCode).toBeNull();
    // The restarted gateway found nothing to repair or set aside.
    expect(gateway.output()).not.toMatch(/corrupt|moved it to|dropped invalid|could not/i);
  });
});
