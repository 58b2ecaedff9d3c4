import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  Committer,
  createDeliver,
  type Deliver,
  InboxWriter,
  type MessageToolCalls,
  readHistory,
  recordTurn,
  rowOf,
  SessionStore,
  type StateStore,
  TranscriptStore,
} from "../../src/testing/index.js";
import { percentile } from "./stats.js";

const KEY = (i: number) => `agent:main:telegram:group:-100${String(i).padStart(9, "0")}`;

/** Fills the state with `count` sessions (each with a two-entry transcript), many rows per statement. */
export async function fillSessions(state: StateStore, count: number): Promise<void> {
  const at = new Date().toISOString();
  const BATCH = 500;
  for (let start = 0; start < count; start += BATCH) {
    const sessions: unknown[] = [];
    const transcripts: unknown[] = [];
    for (let i = start; i < Math.min(count, start + BATCH); i++) {
      const entry = {
        key: KEY(i),
        sessionId: `s-${i}`,
        agentId: "main",
        channel: "telegram",
        accountId: "default",
        conversationId: `-100${String(i).padStart(9, "0")}`,
        chatType: "group",
        title: `Group ${i}`,
        createdAt: at,
        updatedAt: at,
        turns: 1,
        settings: {},
      };
      sessions.push(entry.key, "main", JSON.stringify(entry), Date.now());
      transcripts.push(
        entry.sessionId,
        JSON.stringify({ at, role: "user", content: `hello ${i}`, turnId: `t${i}` }),
        entry.sessionId,
        JSON.stringify({ at, role: "assistant", content: "hi", turnId: `t${i}` }),
      );
    }
    const values = (rows: number, width: number) =>
      Array.from(
        { length: rows },
        (_, r) => `(${Array.from({ length: width }, (_, c) => `$${r * width + c + 1}`).join(", ")})`,
      ).join(", ");
    await state.db.tx(async (sql) => {
      await sql.run(
        `INSERT INTO sessions (key, agent_id, entry, updated_at) VALUES ${values(sessions.length / 4, 4)}`,
        sessions,
      );
      await sql.run(
        `INSERT INTO transcripts (session_id, entry) VALUES ${values(transcripts.length / 2, 2)}`,
        transcripts,
      );
    });
  }
}

/** Where each step's time went, per turn, in ms. */
export interface TurnStateSample {
  /** What the turn waits for: the inbox commit until its row is readable, read, the turn's commit, "sent". */
  total: number;
  /** Everything but the inbox commit: read, the turn's commit, the "sent" mark. */
  turn: number;
  /** The inbox commit until its row is readable (the turn starts then). */
  inbox: number;
  /** The inbox commit until it is on the disk (the platform's acknowledgement waits for it; the turn does not). */
  durable: number;
  read: number;
  commit: number;
  sent: number;
}

/** What the turns of `measureTurnState` work with: one agent's session store and the turn's helpers. */
export interface TurnStateContext {
  state: StateStore;
  store: SessionStore;
  transcripts: TranscriptStore;
  committer: Committer;
  deliver: Deliver;
  inbox: InboxWriter;
  /** Writes the sessions.json mirror and stops its worker. */
  close(): Promise<void>;
}

/**
 * Opens the session store (all sessions read, as the gateway does once at start; the sessions.json
 * mirror written as in the gateway, by its worker) and the turn's helpers, for many `measureTurnState` calls.
 */
export async function openTurnState(state: StateStore): Promise<TurnStateContext> {
  const mirrorDir = mkdtempSync(join(tmpdir(), "chorus-bench-mirror-"));
  const store = await SessionStore.open(state, "main", mirrorDir, { onWarning: () => undefined });
  let sent = 0;
  const tools: MessageToolCalls = {
    execute: async () => ({ ok: true, action: "send", messageId: `out-${++sent}` }),
  };
  return {
    state,
    store,
    transcripts: new TranscriptStore(state),
    committer: new Committer(state),
    deliver: createDeliver({ state, tools, logger: { warn: () => undefined } }),
    inbox: new InboxWriter(state),
    close: async () => {
      await store.close();
      rmSync(mirrorDir, { recursive: true, force: true });
    },
  };
}

/**
 * The state work of one turn, model and platform excluded, exactly as the gateway does it: the
 * inbound event committed to the inbox, the session read again (on PostgreSQL, where another
 * gateway may have run its last turn) and its history (last 40 entries) read once the row is
 * readable (the WAL sync that makes it durable runs meanwhile, as in the gateway: the platform's
 * acknowledgement waits for it, the turn does not), the turn's commit
 * (transcript entries, session row, the reply as an outbox row, the inbox row done — one
 * transaction), and the reply marked sent with its id. The next turn starts once the inbox
 * commit is durable too, so no sync is left running into the next sample.
 */
export async function measureTurnState(
  context: TurnStateContext,
  sessions: number,
  turns: number,
): Promise<TurnStateSample[]> {
  const { store, transcripts, committer, deliver, inbox } = context;
  const samples: TurnStateSample[] = [];
  for (let t = 0; t < turns; t++) {
    const i = (t * 7919) % sessions;
    const key = KEY(i);
    const conversationId = `-100${String(i).padStart(9, "0")}`;
    const ref = { channel: "telegram", accountId: "default", conversationId, messageId: `in-${t}` };
    const event = {
      type: "message" as const,
      eventId: `bench-${t}-${Math.random()}`,
      conversation: { id: conversationId, kind: "group" as const },
      sender: { id: "u1", name: "Ann" },
      text: "hello",
      mentions: { bot: true, others: [] },
      ref,
      timestamp: Date.now(),
    };
    const t0 = performance.now();
    let t1 = 0;
    let readable!: (id: number) => void;
    const committed = new Promise<number>((resolve) => {
      readable = resolve;
    });
    const durable = inbox
      .accept("telegram", "default", event, key, (rowId) => {
        t1 = performance.now();
        readable(rowId as number);
      })
      .then(() => performance.now());
    const id = await committed;
    if (context.state.backend === "postgres") await store.refresh(key);
    const session = store.get(key);
    if (!session) throw new Error(`no session ${key}`);
    await readHistory(transcripts, session.sessionId, 40);
    const t2 = performance.now();
    const record = recordTurn({
      store,
      session,
      userText: "Ann: hello",
      trigger: { ref, senderName: "Ann", text: "hello" },
      result: undefined,
      reply: "hi Ann",
      introduced: false,
    });
    const outbox = await committer.commit({
      sessionKey: key,
      inboxId: id,
      transcript: { sessionId: session.sessionId, entries: record.entries },
      sessions: [rowOf(record.session)],
      replies: [
        {
          text: "hi Ann",
          scope: { channel: "telegram", accountId: "default", conversation: { id: conversationId } },
          entryIndex: 1,
        },
      ],
    });
    store.committed(record.session);
    const t3 = performance.now();
    await deliver(outbox);
    const t4 = performance.now();
    const durableAt = await durable;
    samples.push({
      total: t4 - t0,
      turn: t4 - t1,
      inbox: t1 - t0,
      durable: durableAt - t0,
      read: t2 - t1,
      commit: t3 - t2,
      sent: t4 - t3,
    });
  }
  return samples;
}

/** `p50 … ms, p99 … ms` of one field. */
export function summary(samples: readonly TurnStateSample[], field: keyof TurnStateSample): string {
  const values = samples.map((s) => s[field]);
  return `p50 ${percentile(values, 0.5).toFixed(3)} ms, p99 ${percentile(values, 0.99).toFixed(3)} ms`;
}
