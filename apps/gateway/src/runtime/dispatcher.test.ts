import { waitFor } from "@chorus/testkit";
import pino from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { MessageToolCalls } from "../channels/message-tool.js";
import { TurnQueue } from "../sessions/queue.js";
import type { InboxRow, StateStore } from "../state/index.js";
import { countTransactions, openTestState, type TestState, type TransactionCount } from "../testing/state.js";
import { TurnCommitter } from "../turn/commit.js";
import { Dispatcher, type StepContext } from "./dispatcher.js";

const SESSION = "agent:main:telegram:group:g";
const noTools: MessageToolCalls = {
  execute: () => Promise.reject(new Error("nothing is sent in these tests")),
};

describe("Dispatcher: a run of a session's messages kept as context", () => {
  let opened: TestState;
  let state: StateStore;
  let counted: TransactionCount;

  beforeEach(async () => {
    opened = await openTestState();
    state = opened.state;
    counted = countTransactions(state);
  });

  afterEach(async () => {
    await opened.close();
  });

  async function received(count: number): Promise<void> {
    await state.inbox.accept(
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
    counted.all = 0;
  }

  /** Handles rows like the router: a mention runs a "turn" (committed and waited for), anything else is kept as context. */
  function dispatcher(handled: { row: number; fresh: boolean; bufferedBefore: number }[]) {
    const committer = new TurnCommitter(state, noTools, { warn: () => undefined });
    return new Dispatcher({
      state,
      queue: new TurnQueue({ maxConcurrent: 1 }),
      committer,
      runsHere: () => true,
      handle: async (row: InboxRow, _signal: AbortSignal, step: StepContext) => {
        const triggered = (row.event as { text: string }).text.startsWith("@bot");
        if (triggered) await step.commits.settled();
        const buffered = await state.db.one<{ n: number }>("SELECT count(*) AS n FROM inbox WHERE status = 'buffered'");
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
      logger: pino({ level: "silent" }),
    });
  }

  it("decides them in one step and commits them in one transaction; a triggered one reads them committed", async () => {
    await received(6);
    const handled: { row: number; fresh: boolean; bufferedBefore: number }[] = [];
    dispatcher(handled).wake(SESSION);
    await waitFor(async () => (await state.inbox.counts()).received === 0, {
      timeoutMs: 5_000,
      message: "all rows handled",
    });
    // Rows 0–2 in one step, committed together; the triggered row 3 waited for them and ended that step.
    expect(handled.map((h) => h.fresh)).toEqual([false, true, true, true, false, true]);
    expect(handled[3]?.bufferedBefore).toBe(3);
    // One commit for rows 0–2, one for the triggered row 3, one for rows 4–5.
    expect(counted.all).toBe(3);
    const statuses = await state.db.all<{ status: string }>("SELECT status FROM inbox ORDER BY id");
    expect(statuses.map((r) => r.status)).toEqual(["buffered", "buffered", "buffered", "done", "buffered", "buffered"]);
  });
});
