import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, bench, describe } from "vitest";
import { StateStore } from "../src/state/index.js";
import { startTestPostgres } from "../src/testing/index.js";
import type { StateMeasurement } from "./support/measure-state.js";
import { measureInPlainNode } from "./support/plain-node.js";
import { type Figure, recordFigures } from "./support/results.js";
import { measureTurnState, openTurnState, summary, type TurnStateSample } from "./support/state-turn.js";
import { percentile } from "./support/stats.js";

/*
 * Issue 15's state figures. The state cost of one turn at 100,000 sessions (model and platform
 * excluded; target p99 < 1 ms on SQLite), measured on SQLite and on PostgreSQL; and the inbound
 * throughput committed to the inbox before acknowledgement (target ≥ 5,000 messages/s on SQLite,
 * one core: the measuring process is one thread, SQLite runs in it). Measured in a plain node
 * process (bench/support/measure-state.ts), as the gateway runs.
 */
const SESSIONS = Number(process.env.CHORUS_BENCH_SESSIONS ?? 100_000);
const TURNS = 3_000;

const home = await mkdtemp(join(tmpdir(), "chorus-bench-state-"));
const onSqlite = await measureInPlainNode<StateMeasurement>("measure-state", [home, String(SESSIONS), String(TURNS)]);
console.log(`SQLite: ${SESSIONS.toLocaleString("en")} sessions written in ${(onSqlite.fillMs / 1000).toFixed(1)} s`);
console.log(
  `state cost of one turn at ${SESSIONS.toLocaleString("en")} sessions, SQLite (WAL): ` +
    `${summary(onSqlite.samples, "total")} — inbox commit until readable ${summary(onSqlite.samples, "inbox")} (on the disk, what the platform's acknowledgement waits for: ${summary(onSqlite.samples, "durable")}); the rest (read, commit, sent) ${summary(onSqlite.samples, "turn")}: history read ${summary(onSqlite.samples, "read")}; ` +
    `turn commit ${summary(onSqlite.samples, "commit")}; marked sent ${summary(onSqlite.samples, "sent")}`,
);
const fsyncs = onSqlite.fsyncs ?? [];
console.log(
  `one durable SQLite commit (the commit and the WAL fdatasync after it) on this machine: p50 ${percentile(fsyncs, 0.5).toFixed(3)} ms, p99 ${percentile(fsyncs, 0.99).toFixed(3)} ms`,
);
const inboxFigures: Record<string, Figure> = {};
for (const { inFlight, perSecond, p99Ms } of onSqlite.inbox ?? []) {
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

const server = await startTestPostgres();
const postgresUrl = await server.createDatabase("bench");
const onPostgres = await measureInPlainNode<StateMeasurement>("measure-state", [
  home,
  String(SESSIONS),
  String(TURNS),
  postgresUrl,
]);
console.log(
  `PostgreSQL: ${SESSIONS.toLocaleString("en")} sessions written in ${(onPostgres.fillMs / 1000).toFixed(1)} s`,
);
console.log(
  `state cost of one turn at ${SESSIONS.toLocaleString("en")} sessions, PostgreSQL 15 on loopback (test server, fsync off): ` +
    `${summary(onPostgres.samples, "total")} — inbox commit ${summary(onPostgres.samples, "inbox")}; the rest (read, commit, sent) ${summary(onPostgres.samples, "turn")}: session + history read ${summary(onPostgres.samples, "read")}; ` +
    `turn commit ${summary(onPostgres.samples, "commit")}; marked sent ${summary(onPostgres.samples, "sent")}`,
);

const p = (samples: TurnStateSample[], field: keyof TurnStateSample, fraction: number) =>
  percentile(
    samples.map((sample) => sample[field]),
    fraction,
  );
recordFigures("state", {
  "sqlite.turnStateP50Ms": { value: p(onSqlite.samples, "total", 0.5), unit: "ms" },
  "sqlite.turnStateP99Ms": {
    value: p(onSqlite.samples, "total", 0.99),
    unit: "ms",
    target: "< 1",
    what: `state cost of one turn at ${SESSIONS} sessions: inbox commit until readable, session + history read, the turn's commit, marked sent`,
  },
  "sqlite.inboxDurableP99Ms": {
    value: p(onSqlite.samples, "durable", 0.99),
    unit: "ms",
    what: "the inbox commit until on the disk (the platform's acknowledgement waits for it, the turn runs meanwhile)",
  },
  "sqlite.fsyncP99Ms": { value: percentile(fsyncs, 0.99), unit: "ms", what: "one durable commit" },
  "postgres.turnStateP99Ms": { value: p(onPostgres.samples, "total", 0.99), unit: "ms" },
  ...inboxFigures,
});

// vitest's own timing of the same work, in its worker, on the stores the measurements filled.
const sqlite = await openTurnState(await StateStore.open({ backend: "sqlite" }, { home }));
const postgres = await openTurnState(await StateStore.open({ backend: "postgres", url: postgresUrl }, { home }));

afterAll(async () => {
  for (const context of [sqlite, postgres]) {
    await context.close();
    await context.state.close();
  }
  await server.stop();
  await rm(home, { recursive: true, force: true });
});

describe("state layer (in vitest's worker)", () => {
  bench("one turn's state work at 100,000 sessions (SQLite)", async () => {
    await measureTurnState(sqlite, SESSIONS, 1);
  });
  bench("one turn's state work at 100,000 sessions (PostgreSQL)", async () => {
    await measureTurnState(postgres, SESSIONS, 1);
  });
});
