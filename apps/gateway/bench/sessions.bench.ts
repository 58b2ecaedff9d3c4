import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, bench, describe } from "vitest";
import { StateStore } from "../src/state/index.js";
import { forceGc, SessionStore, TurnQueue } from "../src/testing/index.js";
import { recordFigures } from "./support/results.js";

const SESSIONS = 10_000;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const dir = await mkdtemp(join(tmpdir(), "chorus-bench-sessions-"));
// Both readings after a full collection: the heap figure is what the sessions keep, not garbage.
const gc = forceGc();
gc();
const before = process.memoryUsage();
const state = await StateStore.open({ backend: "sqlite" }, { home: dir });
const store = await SessionStore.open(state, "main", dir);
for (let i = 0; i < SESSIONS; i++) {
  const conversationId = `${120_000_000 + i}@g.us`;
  store.changeSettings(
    `agent:main:whatsapp:group:${conversationId}`,
    { activation: i % 2 === 0 ? "mention" : "always", verbose: false },
    {
      agentId: "main",
      channel: "whatsapp",
      accountId: "default",
      conversationId,
      chatType: "group",
      title: `Group number ${i}`,
    },
  );
}
const firstFlushStart = performance.now();
await store.flush();
const firstFlushMs = performance.now() - firstFlushStart;
gc();
const after = process.memoryUsage();
// RSS is the whole bench worker's (vitest included); the growth is what the 10,000 sessions cost.
console.log(
  `RSS with ${SESSIONS.toLocaleString("en")} sessions in the store: ${mb(after.rss)} ` +
    `(+${mb(after.rss - before.rss)} over the ${mb(before.rss)} before; JS heap +${mb(after.heapUsed - before.heapUsed)}); ` +
    `first flush (rows + the sessions.json mirror) ${firstFlushMs.toFixed(1)} ms`,
);

recordFigures("sessions", {
  heapPer10kSessionsMB: { value: (after.heapUsed - before.heapUsed) / 1024 / 1024, unit: "MB" },
  firstFlushMs: { value: firstFlushMs, unit: "ms", what: `${SESSIONS} sessions: rows + sessions.json mirror` },
});

afterAll(async () => {
  await store.flush();
  await state.close();
  await rm(dir, { recursive: true, force: true });
});

let turn = 0;
describe("SessionStore with 10,000 sessions", () => {
  bench(
    "update one session + flush() (commits its row, then rewrites the sessions.json mirror)",
    async () => {
      turn++;
      store.update(`agent:main:whatsapp:group:${120_000_000 + (turn % SESSIONS)}@g.us`, { turns: turn });
      await store.flush();
    },
    { time: 2000, iterations: 10 },
  );

  bench(
    "100 updates in one tick + flush() (one transaction, one mirror write)",
    async () => {
      for (let i = 0; i < 100; i++) {
        turn++;
        store.update(`agent:main:whatsapp:group:${120_000_000 + (turn % SESSIONS)}@g.us`, { turns: turn });
      }
      await store.flush();
    },
    { time: 2000, iterations: 10 },
  );
});

describe("TurnQueue", () => {
  bench("1000 tiny tasks over 100 keys (maxConcurrent 8)", async () => {
    const queue = new TurnQueue({ maxConcurrent: 8 });
    const runs: Promise<number>[] = [];
    for (let i = 0; i < 1000; i++) runs.push(queue.run(`key-${i % 100}`, async () => i));
    await Promise.all(runs);
  });
});
