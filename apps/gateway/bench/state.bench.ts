import { closeSync, fsyncSync, openSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { InboundMessageEvent } from "@chorus/core";
import { afterAll, bench, describe } from "vitest";
import { InboxWriter } from "../src/runtime/inbox.js";
import { StateStore } from "../src/state/index.js";
import { startTestPostgres } from "../src/testing/postgres-server.js";
import { type Figure, recordFigures } from "./support/results.js";
import { fillSessions, measureTurnState, summary } from "./support/state-turn.js";
import { percentile } from "./support/stats.js";

/*
 * Issue 15's state figures. The state cost of one turn at 100,000 sessions (model and platform
 * excluded; target p99 < 1 ms on SQLite), measured on SQLite and on PostgreSQL; and the inbound
 * throughput committed to the inbox before acknowledgement (target ≥ 5,000 messages/s on SQLite,
 * one core: this process is one thread, SQLite runs in it).
 */
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

const SESSIONS = Number(process.env.CHORUS_BENCH_SESSIONS ?? 100_000);
const TURNS = 3_000;

const home = await mkdtemp(join(tmpdir(), "chorus-bench-state-"));
const sqlite = await StateStore.open({ backend: "sqlite" }, { home });
let started = performance.now();
await fillSessions(sqlite, SESSIONS);
// The filled sessions reach the disk before the clock runs, as a gateway's existing sessions have long
// since: else the kernel writes the fill's ~80 MB back during the measurement and every sync waits on it.
syncToDisk(sqlite.where, `${sqlite.where}-wal`);
console.log(
  `SQLite: ${SESSIONS.toLocaleString("en")} sessions written in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
await measureTurnState(sqlite, SESSIONS, 300); // warm-up
const onSqlite = await measureTurnState(sqlite, SESSIONS, TURNS);
console.log(
  `state cost of one turn at ${SESSIONS.toLocaleString("en")} sessions, SQLite (WAL): ` +
    `${summary(onSqlite, "total")} — inbox commit until readable ${summary(onSqlite, "inbox")} (on the disk, what the platform's acknowledgement waits for: ${summary(onSqlite, "durable")}); the rest (read, commit, sent) ${summary(onSqlite, "turn")}: session + history read ${summary(onSqlite, "read")}; ` +
    `turn commit ${summary(onSqlite, "commit")}; marked sent ${summary(onSqlite, "sent")}`,
);

// The floor under the inbox commit: one durable (fsynced) commit of one tiny row on this disk.
const fsyncs: number[] = [];
await sqlite.db.run("CREATE TABLE IF NOT EXISTS bench_fsync (n INTEGER)");
for (let i = 0; i < 2_000; i++) {
  const t = performance.now();
  await sqlite.db.tx((sql) => sql.run("INSERT INTO bench_fsync (n) VALUES ($1)", [i]), { durable: true });
  fsyncs.push(performance.now() - t);
}
console.log(
  `one durable SQLite commit (the commit and the WAL fdatasync after it) on this machine: p50 ${percentile(fsyncs, 0.5).toFixed(3)} ms, p99 ${percentile(fsyncs, 0.99).toFixed(3)} ms`,
);

const server = await startTestPostgres();
const postgres = await StateStore.open({ backend: "postgres", url: await server.createDatabase("bench") }, { home });
started = performance.now();
await fillSessions(postgres, SESSIONS);
console.log(
  `PostgreSQL: ${SESSIONS.toLocaleString("en")} sessions written in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
await measureTurnState(postgres, SESSIONS, 300);
const onPostgres = await measureTurnState(postgres, SESSIONS, TURNS);
console.log(
  `state cost of one turn at ${SESSIONS.toLocaleString("en")} sessions, PostgreSQL 15 on loopback (test server, fsync off): ` +
    `${summary(onPostgres, "total")} — inbox commit ${summary(onPostgres, "inbox")}; the rest (read, commit, sent) ${summary(onPostgres, "turn")}: session + history read ${summary(onPostgres, "read")}; ` +
    `turn commit ${summary(onPostgres, "commit")}; marked sent ${summary(onPostgres, "sent")}`,
);

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

const inboxFigures: Record<string, Figure> = {};
for (const inFlight of [1, 10, 100]) {
  const { perSecond, p99Ms } = await inboxThroughput(sqlite, 20_000, inFlight);
  inboxFigures[`inboxPerSecond.inFlight${inFlight}`] = {
    value: perSecond,
    unit: "messages/s",
    ...(inFlight === 100 ? { target: "≥ 5000" } : {}),
  };
  console.log(
    `inbound committed to the inbox before acknowledgement, SQLite, ${inFlight} in flight: ` +
      `${Math.round(perSecond).toLocaleString("en")} messages/s (commit wait p99 ${p99Ms.toFixed(2)} ms)`,
  );
}

const p = (samples: typeof onSqlite, field: keyof (typeof onSqlite)[number], fraction: number) =>
  percentile(
    samples.map((sample) => sample[field]),
    fraction,
  );
recordFigures("state", {
  "sqlite.turnStateP50Ms": { value: p(onSqlite, "total", 0.5), unit: "ms" },
  "sqlite.turnStateP99Ms": {
    value: p(onSqlite, "total", 0.99),
    unit: "ms",
    target: "< 1",
    what: `state cost of one turn at ${SESSIONS} sessions: inbox commit until readable, session + history read, the turn's commit, marked sent`,
  },
  "sqlite.inboxDurableP99Ms": {
    value: p(onSqlite, "durable", 0.99),
    unit: "ms",
    what: "the inbox commit until on the disk (the platform's acknowledgement waits for it, the turn runs meanwhile)",
  },
  "sqlite.fsyncP99Ms": { value: percentile(fsyncs, 0.99), unit: "ms", what: "one durable commit" },
  "postgres.turnStateP99Ms": { value: p(onPostgres, "total", 0.99), unit: "ms" },
  ...inboxFigures,
});

afterAll(async () => {
  await sqlite.close();
  await postgres.close();
  await server.stop();
  await rm(home, { recursive: true, force: true });
});

describe("state layer", () => {
  bench("one turn's state work at 100,000 sessions (SQLite)", async () => {
    await measureTurnState(sqlite, SESSIONS, 1);
  });
  bench("one turn's state work at 100,000 sessions (PostgreSQL)", async () => {
    await measureTurnState(postgres, SESSIONS, 1);
  });
});
