import { waitFor } from "@chorus/testkit";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { TurnQueue } from "../sessions/index.js";
import type { InboxRow } from "../state/index.js";
import { useCountedTestState } from "../testing/index.js";
import { Committer } from "./commit.js";
import { Scheduler, type StepContext } from "./schedule.js";
import { StateOutage } from "./state-outage.js";

const SESSION = "agent:main:telegram:group:g";

describe("Scheduler: a run of a session's messages kept as context", () => {
  const test = useCountedTestState();

  async function received(count: number): Promise<void> {
    await test.state.inbox.accept(
      Array.from({ length: count }, (_, i) => ({
        channel: "telegram",
        account: "default",
        eventId: `event-${i}`,
        sessionKey: SESSION,
        event: { type: "message", text: i === 3 ? "@bot hello" : `message ${i}` },
        refs: [],
      })),
      Date.now(),
    );
    test.counted.all = 0;
  }

  /** Handles rows like the router: a mention runs a "turn" (committed and waited for), anything else is kept as context. */
  function dispatcher(handled: { row: number; fresh: boolean; bufferedBefore: number }[]) {
    const committer = new Committer(test.state);
    return new Scheduler({
      state: test.state,
      queue: new TurnQueue({ maxConcurrent: 1 }),
      deliver: () => Promise.reject(new Error("nothing is sent in these tests")),
      runsHere: () => true,
      handle: async (row: InboxRow, _signal: AbortSignal, step: StepContext) => {
        const triggered = (row.event as { text: string }).text.startsWith("@bot");
        if (triggered) await step.commits.settled();
        const buffered = await test.state.db.one<{ n: number }>(
          "SELECT count(*) AS n FROM inbox WHERE status = 'buffered'",
        );
        handled.push({ row: row.id, fresh: step.fresh, bufferedBefore: Number(buffered?.n) });
        const commit = committer.commit({
          sessionKey: SESSION,
          inboxId: row.id,
          buffered: !triggered,
          sessions: [],
          replies: [],
        });
        if (triggered) {
          await commit;
          return false;
        }
        step.commits.add(commit);
        return true;
      },
      handleLoose: async () => undefined,
      outage: new StateOutage(pino({ level: "silent" })),
      logger: pino({ level: "silent" }),
    });
  }

  it("decides them in one step and commits them in one transaction; a triggered one reads them committed", async () => {
    await received(6);
    const handled: { row: number; fresh: boolean; bufferedBefore: number }[] = [];
    dispatcher(handled).wake(SESSION);
    await waitFor(async () => (await test.state.inbox.counts()).received === 0, {
      timeoutMs: 5_000,
      message: "all rows handled",
    });
    // Rows 0–2 in one step, committed together; the triggered row 3 waited for them and ended that step.
    expect(handled.map((h) => h.fresh)).toEqual([false, true, true, true, false, true]);
    expect(handled[3]?.bufferedBefore).toBe(3);
    // One commit for rows 0–2, one for the triggered row 3, one for rows 4–5.
    expect(test.counted.all).toBe(3);
    const statuses = await test.state.db.all<{ status: string }>("SELECT status FROM inbox ORDER BY id");
    expect(statuses.map((r) => r.status)).toEqual(["buffered", "buffered", "buffered", "done", "buffered", "buffered"]);
  });

  /** Counts the reads of a session's next rows (one per step that found nothing, or that handled rows). */
  function countReads(): { reads: number } {
    const count = { reads: 0 };
    const nextRows = test.state.inbox.nextRows.bind(test.state.inbox);
    test.state.inbox.nextRows = (...args) => {
      count.reads++;
      return nextRows(...args);
    };
    return count;
  }

  async function receive(eventId: string, text: string): Promise<void> {
    await test.state.inbox.accept(
      [
        {
          channel: "telegram",
          account: "default",
          eventId,
          sessionKey: SESSION,
          event: { type: "message", text },
          refs: [],
        },
      ],
      Date.now(),
    );
  }

  it("a turn of the session's last row ends its step: no further step reads the inbox to find nothing", async () => {
    await receive("only", "@bot hello");
    const count = countReads();
    const handled: { row: number; fresh: boolean; bufferedBefore: number }[] = [];
    const dispatch = dispatcher(handled);
    dispatch.wake(SESSION);
    await waitFor(async () => (await test.state.inbox.counts()).received === 0, {
      timeoutMs: 5_000,
      message: "row handled",
    });
    // A row received now wakes the session itself, and is handled in a step of its own.
    await receive("later", "@bot again");
    dispatch.wake(SESSION);
    await waitFor(async () => (await test.state.inbox.counts()).received === 0, {
      timeoutMs: 5_000,
      message: "row handled",
    });
    expect(handled).toHaveLength(2);
    expect(count.reads).toBe(2);
  });

  it("a turn with rows after it leaves the step for the next one, which handles them", async () => {
    await receive("first", "@bot one");
    await receive("second", "@bot two");
    await receive("third", "@bot three");
    const count = countReads();
    const handled: { row: number; fresh: boolean; bufferedBefore: number }[] = [];
    dispatcher(handled).wake(SESSION);
    await waitFor(async () => (await test.state.inbox.counts()).received === 0, {
      timeoutMs: 5_000,
      message: "rows handled",
    });
    expect(handled.map((h) => h.fresh)).toEqual([false, false, false]);
    // One step per turn; the last one saw no row after its own.
    expect(count.reads).toBe(3);
  });
});
