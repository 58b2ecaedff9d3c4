import type { WireMessage } from "@chorus/testkit";
import { eventually, waitFor } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { committedTurns, readSessionsOnDisk, readTranscriptOnDisk } from "../support/faults-state.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { createModelWorld, type ModelWorld } from "../support/memory-setup.js";

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

  it("restarts on a valid sessions.json with every committed turn, answers no message twice, and answers new ones", async () => {
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
    // Every answer takes 100 ms, four turns at a time: the burst is still running when the kill comes.
    model.inject({ kind: "delay", ms: 100, times: Number.POSITIVE_INFINITY });
    const config = world.config();
    gateway = await startGatewayProcess({ config });
    home = gateway.home;
    const wave = (n: number) =>
      GROUPS.map((id, i) =>
        platform.userSends({ conversationId: id, senderId: `u${i}`, text: `Chorus, wave ${n} in ${id}` }),
      );
    const committedAtLeast = (turns: number) =>
      waitFor(async () => committedTurns(await readSessionsOnDisk(home as string)) >= turns, {
        timeoutMs: 15_000,
        message: `${turns} committed turns in sessions.json`,
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

    // sessions.json is valid and holds every turn committed before the kill.
    const onDisk = await readSessionsOnDisk(home);
    for (const [key, entry] of Object.entries(before)) {
      expect(onDisk[key]).toMatchObject({ sessionId: entry.sessionId });
      expect(onDisk[key]?.turns).toBeGreaterThanOrEqual(entry.turns);
    }
    for (const entry of Object.values(onDisk)) {
      const { turns } = await readTranscriptOnDisk(home, entry.sessionId);
      // A kill between the transcript append and the sessions.json write leaves the transcript one turn ahead.
      expect(turns.length - entry.turns).toBeGreaterThanOrEqual(0);
      expect(turns.length - entry.turns).toBeLessThanOrEqual(1);
      for (const turn of turns) {
        const question = sent.find((m) => m.id === turn.user.messageId) as WireMessage;
        expect(question).toMatchObject({ conversationId: entry.conversationId });
        // Group turns carry the batch: the question, then the [from: …] line.
        expect(turn.user.content).toContain(question.text);
        expect(repliesTo(question).map((m) => m.id)).toEqual([turn.assistant.messageId]);
      }
    }

    const answeredBeforeRestart = new Set(sent.flatMap((m) => repliesTo(m).map((r) => r.id)));
    gateway = await startGatewayProcess({ home, config });
    // Messages sent while the gateway was dead are answered after the restart; the earlier ones are not answered again.
    await eventually(() => expect(whileDead.filter((m) => repliesTo(m).length === 0)).toEqual([]), {
      timeoutMs: 15_000,
    });
    for (const message of sent) expect(repliesTo(message).length).toBeLessThanOrEqual(1);
    // Each session went on from what was on disk: one more turn per answer given since the restart.
    await eventually(async () => {
      const now = await readSessionsOnDisk(home as string);
      for (const group of GROUPS) {
        const answeredSince = sent.filter(
          (m) => m.conversationId === group && repliesTo(m).some((r) => !answeredBeforeRestart.has(r.id)),
        );
        expect(answeredSince.length).toBeGreaterThanOrEqual(1);
        expect(now[keyOf(group)]?.turns).toBe((onDisk[keyOf(group)]?.turns ?? 0) + answeredSince.length);
      }
    });
    expect(gateway.process.exitCode).toBeNull();
    // The restarted gateway found nothing to repair or set aside.
    expect(gateway.output()).not.toMatch(/corrupt|moved it to|dropped invalid|could not/i);
  });
});
