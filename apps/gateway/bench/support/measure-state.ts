import { closeSync, fsyncSync, openSync } from "node:fs";
import type { InboundMessageEvent } from "@chorus/core";
import { InboxWriter, StateStore } from "../../src/testing/index.js";
import { fillSessions, measureTurnState, openTurnState, type TurnStateSample } from "./state-turn.js";
import { percentile } from "./stats.js";

/** What `measure-state` answers (see state.bench.ts, which runs it in a plain node process). */
export interface StateMeasurement {
  fillMs: number;
  samples: TurnStateSample[];
  /** SQLite only: one durable commit of one tiny row, in ms each. */
  fsyncs?: number[];
  /** SQLite only: inbox throughput with 1, 10 and 100 emits in flight. */
  inbox?: { inFlight: number; perSecond: number; p99Ms: number }[];
}

const WARM_UP_TURNS = 300;

/**
 * `node measure-state.js <home> <sessions> <turns> [postgres-url]`: fills the state with `sessions`
 * sessions, measures `turns` turns' state work on it (after a warm-up), and on SQLite also the floor
 * of one durable commit and the inbox throughput. The store is left filled for the caller.
 */
async function main(): Promise<void> {
  const [home, sessionsArg, turnsArg, url] = process.argv.slice(2);
  if (!home || !sessionsArg || !turnsArg)
    throw new Error("usage: measure-state <home> <sessions> <turns> [postgres-url]");
  const sessions = Number(sessionsArg);
  const turns = Number(turnsArg);
  const state = await StateStore.open(url ? { backend: "postgres", url } : { backend: "sqlite" }, { home });
  try {
    const started = performance.now();
    await fillSessions(state, sessions);
    // The filled sessions reach the disk before the clock runs, as a gateway's existing sessions have long
    // since: else the kernel writes the fill's ~80 MB back during the measurement and every sync waits on it.
    if (!url) syncToDisk(state.where, `${state.where}-wal`);
    const fillMs = performance.now() - started;
    const context = await openTurnState(state);
    await measureTurnState(context, sessions, WARM_UP_TURNS);
    // The sessions.json mirror's first full copy (~40 MB at 100,000 sessions) is written once after a
    // gateway starts, not per turn: it is on the disk before the clock runs.
    await context.store.flush();
    const samples = await measureTurnState(context, sessions, turns);
    await context.close();
    const answer: StateMeasurement = { fillMs, samples };
    if (!url) {
      answer.fsyncs = await durableCommits(state, 2_000);
      answer.inbox = [];
      for (const inFlight of [1, 10, 100])
        answer.inbox.push({ inFlight, ...(await inboxThroughput(state, 20_000, inFlight)) });
    }
    process.stdout.write(`${JSON.stringify(answer)}\n`);
  } finally {
    await state.close();
  }
}

/** fsync of files, so that what was written to them is on the disk. */
function syncToDisk(...files: string[]): void {
  for (const file of files) {
    const fd = openSync(file, "r+");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}

/** The floor under the inbox commit: one durable (synced) commit of one tiny row on this disk, `count` times. */
async function durableCommits(state: StateStore, count: number): Promise<number[]> {
  const times: number[] = [];
  await state.db.run("CREATE TABLE IF NOT EXISTS bench_fsync (n INTEGER)");
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await state.db.tx((sql) => sql.run("INSERT INTO bench_fsync (n) VALUES ($1)", [i]), { durable: true });
    times.push(performance.now() - t);
  }
  return times;
}

/** Messages/s committed with `inFlight` emits outstanding at once (each awaits its commit, as a channel acks after it). */
async function inboxThroughput(
  state: StateStore,
  messages: number,
  inFlight: number,
): Promise<{ perSecond: number; p99Ms: number }> {
  const writer = new InboxWriter(state);
  let next = 0;
  const waits: number[] = [];
  const event = (n: number): InboundMessageEvent => ({
    type: "message",
    eventId: `tp-${inFlight}-${n}-${Math.random()}`,
    conversation: { id: `c${n % 50}`, kind: "group" },
    sender: { id: "u", name: "U" },
    text: "hi",
    mentions: { bot: false, others: [] },
    ref: { channel: "telegram", accountId: "default", conversationId: `c${n % 50}`, messageId: `m${n}` },
    timestamp: Date.now(),
  });
  const startedAt = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < messages) {
        const n = next++;
        const t = performance.now();
        await writer.accept("telegram", "default", event(n), `agent:main:telegram:group:c${n % 50}`);
        waits.push(performance.now() - t);
      }
    }),
  );
  return { perSecond: messages / ((performance.now() - startedAt) / 1000), p99Ms: percentile(waits, 0.99) };
}

await main();
