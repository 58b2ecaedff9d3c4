import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, bench, describe } from "vitest";
import { type InboxInsert, StateStore } from "../src/state/index.js";
import {
  type ChannelSettings,
  checkAccess,
  compileMentionPatterns,
  defaultMentionPatterns,
  detectMention,
  formatBatch,
  GroupContextStore,
  PairingStore,
  pendingOf,
  resolveHistoryLimit,
} from "../src/testing/index.js";
import { recordFigures } from "./support/results.js";
import { percentile } from "./support/stats.js";

// Non-triggering group messages through the real pipeline pieces the gateway runs before deciding
// not to start a turn: checkAccess (groupPolicy allowlist + groups "*" + groupAllowFrom by E.164),
// detectMention (default patterns of "Chorus" + the bot's E.164). Buffering it costs nothing more:
// the message's inbox row is marked `buffered` instead of `done` in the commit it has anyway
// (measured below next to `done`); a triggered message reads the pending rows from the state layer.

const GROUPS = 10_000;
const LIMIT = resolveHistoryLimit({}, undefined);
const MESSAGES = 300_000;
const BOT = { id: "15550000000@s.whatsapp.net", e164: "+15550000000" };
const WORDS =
  "the a meeting lunch tomorrow photo did you see this great idea let's go at noon maybe later thanks ok sure who is coming bring snacks weather rain sunny train late again".split(
    " ",
  );

let seed = 42;
const random = (): number => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
/** A fresh, flat string of 6–20 words (~80 characters), never mentioning the bot. */
const sentence = (): string => {
  const words: string[] = [];
  for (let n = 6 + Math.floor(random() * 15); n > 0; n--)
    words.push(WORDS[Math.floor(random() * WORDS.length)] as string);
  return words.join(" ");
};

const senders = Array.from({ length: 40 }, (_, i) => ({
  id: `1555${String(1_000_000 + i)}@s.whatsapp.net`,
  e164: `+1555${String(1_000_000 + i)}`,
  name: `Member ${i}`,
}));
const settings: ChannelSettings = {
  groupPolicy: "allowlist",
  groups: { "*": { requireMention: true } },
  groupAllowFrom: senders.map((sender) => sender.e164.replace(/^\+1/, "+1 ")),
};
const patterns = compileMentionPatterns(defaultMentionPatterns("Chorus"));
const none = { bot: false, others: [] };
const dir = await mkdtemp(join(tmpdir(), "chorus-bench-groups-"));
const state = await StateStore.open({ backend: "sqlite" }, { home: dir });
const pairing = await PairingStore.open(state);
const texts = Array.from({ length: 2_000 }, sentence);

let counter = 0;
/** One message through access → mention (buffered: its row's status); throws if it would have triggered or been blocked. */
async function nonTriggering(group: number, text: string): Promise<void> {
  const sender = senders[counter++ % senders.length] as (typeof senders)[number];
  const conversationId = `${120_000_000 + group}@g.us`;
  const access = await checkAccess({
    channel: "whatsapp",
    accountId: "default",
    conversation: { id: conversationId, kind: "group" },
    sender,
    settings,
    bot: BOT,
    pairing,
  });
  if (!access.allowed) throw new Error(`blocked: ${access.reason}`);
  const mention = detectMention({ text, mentions: none, patterns, botE164: BOT.e164 });
  if (mention.mentioned) throw new Error(`unexpected mention by ${mention.by} in ${JSON.stringify(text)}`);
}

// Throughput: one core (this worker's thread), 1,000 busy groups round-robin.
for (let i = 0; i < 20_000; i++) await nonTriggering(i % 1_000, texts[i % texts.length] as string);
const start = performance.now();
for (let i = 0; i < MESSAGES; i++) await nonTriggering(i % 1_000, texts[i % texts.length] as string);
const seconds = (performance.now() - start) / 1000;
console.log(
  `non-triggering group messages (checkAccess + detectMention; buffered by its inbox row's status, no work of its own): ` +
    `${Math.round(MESSAGES / seconds).toLocaleString("en")}/s on one core ` +
    `(${MESSAGES.toLocaleString("en")} messages over 1,000 groups, target ≥ 50,000/s)`,
);

// The state layer: 10,000 groups × 50 buffered messages as inbox rows (no memory of their own).
const event = (group: number, n: number) => {
  const sender = senders[n % senders.length] as (typeof senders)[number];
  const conversationId = `${120_000_000 + group}@g.us`;
  return {
    type: "message" as const,
    eventId: `${group}:${n}`,
    conversation: { id: conversationId, kind: "group" as const },
    sender,
    text: texts[n % texts.length] as string,
    mentions: none,
    ref: { channel: "whatsapp", accountId: "default", conversationId, messageId: `3EB0${group}x${n}` },
    timestamp: Date.now(),
  };
};
const keyOf = (group: number) => `agent:main:whatsapp:group:${120_000_000 + group}@g.us`;
const insertOf = (group: number, n: number): InboxInsert => ({
  channel: "whatsapp",
  account: "default",
  eventId: `${group}:${n}`,
  sessionKey: keyOf(group),
  event: event(group, n),
  refs: [],
});
for (let round = 0; round < LIMIT; round++) {
  const batch = Array.from({ length: GROUPS }, (_, group) => insertOf(group, round));
  const ids = await state.inbox.accept(batch, Date.now());
  await state.db.tx(async (sql) => {
    for (const id of ids) await state.inbox.done(sql, id as number, Date.now(), "buffered");
  });
}
// Marking a handled row: `done` (a message that triggered, or was blocked) and `buffered` are one statement alike.
const markUs = { done: [] as number[], buffered: [] as number[] };
for (let i = 0; i < 4_000; i++) {
  const status = i % 2 === 0 ? "done" : "buffered";
  const [id] = await state.inbox.accept([insertOf(GROUPS + (i % 100), 1_000 + i)], Date.now());
  const t0 = performance.now();
  await state.db.tx((sql) => state.inbox.done(sql, id as number, Date.now(), status));
  markUs[status].push((performance.now() - t0) * 1000);
}
const us = (list: number[], fraction: number) => percentile(list, fraction).toFixed(0);
console.log(
  `marking a handled message's inbox row (SQLite, ${(GROUPS * LIMIT).toLocaleString("en")} buffered rows held): ` +
    `done p50 ${us(markUs.done, 0.5)} µs, p99 ${us(markUs.done, 0.99)} µs; buffered p50 ${us(markUs.buffered, 0.5)} µs, p99 ${us(markUs.buffered, 0.99)} µs`,
);
// A triggered message reads its group's pending rows (the last 50) and moves the group's mark.
const contexts = new GroupContextStore(state);
const triggerUs: number[] = [];
for (let i = 0; i < 2_000; i++) {
  const group = (i * 7) % GROUPS;
  const t0 = performance.now();
  const context = await contexts.triggered(keyOf(group), 1_000_000_000 + i, LIMIT);
  const settled = context.settle(formatBatch(context.pending, pendingOf(event(group, 9_999))), true);
  await state.db.tx(settled.record);
  triggerUs.push((performance.now() - t0) * 1000);
  if (i < GROUPS && context.pending.length !== LIMIT) {
    throw new Error(`expected ${LIMIT} pending messages, got ${context.pending.length}`);
  }
}
console.log(
  `a triggered group message's pending context from the state layer (${LIMIT} of ${(GROUPS * LIMIT).toLocaleString("en")} buffered rows, ` +
    `read; the group's mark is written in the turn's commit, here a commit of its own): p50 ${us(triggerUs, 0.5)} µs, p99 ${us(triggerUs, 0.99)} µs`,
);

recordFigures("groups", {
  nonTriggeringPerSecond: {
    value: MESSAGES / seconds,
    unit: "messages/s",
    target: "≥ 50000",
    what: "checkAccess + detectMention + buffering, one core, in process",
  },
  pendingContextP99: {
    value: percentile(triggerUs, 0.99),
    unit: "µs",
    what: "a triggered message's pending context read from the state layer",
  },
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let next = 0;
describe("non-triggering group message", () => {
  bench("checkAccess + detectMention (buffered by its inbox row's status)", async () => {
    next++;
    await nonTriggering(next % 1_000, texts[next % texts.length] as string);
  });
});
