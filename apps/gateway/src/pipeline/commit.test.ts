import { describe, expect, it } from "vitest";
import type { Sql } from "../state/index.js";
import { useCountedTestState } from "../testing/index.js";
import { Committer } from "./commit.js";

describe("Committer: completions without a transcript or replies", () => {
  const test = useCountedTestState();

  /** Received inbox rows, one a session. */
  async function received(count: number): Promise<number[]> {
    const ids = await test.state.inbox.accept(
      Array.from({ length: count }, (_, i) => ({
        channel: "telegram",
        account: "default",
        eventId: `event-${i}`,
        sessionKey: `agent:main:telegram:group:${i}`,
        event: { type: "message", text: `message ${i}` },
        refs: [],
      })),
      Date.now(),
    );
    test.counted.all = 0;
    return ids as number[];
  }

  const open = async () => (await test.state.inbox.received()).map((row) => row.id);

  it("commits the ones of one tick in one transaction, each inbox row marked done", async () => {
    const ids = await received(5);
    const committer = new Committer(test.state);
    const rows = await Promise.all(
      ids.map((id, i) =>
        committer.commit({ sessionKey: `agent:main:telegram:group:${i}`, inboxId: id, sessions: [], replies: [] }),
      ),
    );
    expect(rows).toEqual([[], [], [], [], []]);
    expect(test.counted.all).toBe(1);
    expect(await open()).toEqual([]);
  });

  it("buffered messages of one tick: their rows marked buffered and their context marks written, in the one transaction", async () => {
    const ids = await received(3);
    const committer = new Committer(test.state);
    const marked: string[] = [];
    await Promise.all(
      ids.map((id, i) =>
        committer.commit({
          sessionKey: `agent:main:telegram:group:${i}`,
          inboxId: id,
          buffered: i !== 1,
          sessions: [],
          replies: [],
          also: async (sql: Sql) => {
            await test.state.kv.set("test", `mark-${i}`, JSON.stringify({ at: i }), undefined, sql);
            marked.push(`mark-${i}`);
          },
        }),
      ),
    );
    expect(test.counted.all).toBe(1);
    expect(marked).toEqual(["mark-0", "mark-1", "mark-2"]);
    const statuses = await test.state.db.all<{ id: number; status: string }>(
      "SELECT id, status FROM inbox ORDER BY id",
    );
    expect(statuses.map((r) => r.status)).toEqual(["buffered", "done", "buffered"]);
  });

  it("a fence that refuses fails only its own completion; the others of the tick commit", async () => {
    const ids = await received(3);
    const committer = new Committer(test.state);
    const refused = new Error("the lease is lost");
    const outcomes = await Promise.allSettled(
      ids.map((id, i) =>
        committer.commit({
          sessionKey: `agent:main:telegram:group:${i}`,
          inboxId: id,
          sessions: [],
          replies: [],
          ...(i === 1
            ? {
                fence: async () => {
                  throw refused;
                },
              }
            : {}),
        }),
      ),
    );
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect((outcomes[1] as PromiseRejectedResult).reason).toBe(refused);
    // The shared transaction rolled back; each was then committed on its own.
    expect(test.counted.all).toBe(1 + 3);
    expect(await open()).toEqual([ids[1]]);
  });

  it("one alone in its tick commits in its own transaction", async () => {
    const [id] = await received(1);
    const committer = new Committer(test.state);
    await committer.commit({
      sessionKey: "agent:main:telegram:group:0",
      inboxId: id as number,
      sessions: [],
      replies: [],
    });
    expect(test.counted.all).toBe(1);
    expect(await open()).toEqual([]);
  });
});

describe("Committer: what became of the inbox row", () => {
  const test = useCountedTestState();

  it("keeps a completion's outcome on its row, and links its replies to it", async () => {
    const [id] = (await test.state.inbox.accept(
      [
        {
          channel: "telegram",
          account: "default",
          eventId: "e1",
          sessionKey: "s",
          event: { type: "message" },
          refs: [],
        },
      ],
      Date.now(),
    )) as [number];
    const scope = { channel: "telegram", accountId: "default", conversation: { id: "dm" } };
    const [reply] = await new Committer(test.state).commit({
      sessionKey: "s",
      inboxId: id,
      outcome: { outcome: "blocked", reason: "sender bob is not in channels.telegram.allowFrom" },
      sessions: [],
      replies: [{ text: "Your pairing code is ABC123", scope }],
    });
    const [row] = await test.state.db.all<{ status: string; outcome: string; outcome_detail: string }>(
      "SELECT status, outcome, outcome_detail FROM inbox",
    );
    expect(row).toEqual({
      status: "done",
      outcome: "blocked",
      outcome_detail: JSON.stringify({ reason: "sender bob is not in channels.telegram.allowFrom" }),
    });
    expect(await test.state.db.all("SELECT inbox_id FROM outbox WHERE id = $1", [reply?.id])).toEqual([
      { inbox_id: id },
    ]);
  });
});
