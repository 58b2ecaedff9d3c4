import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, bench, describe } from "vitest";
import { PairingStore } from "../src/access/pairing-store.js";
import { checkAccess } from "../src/access/policy.js";
import { defaultMentionPatterns } from "../src/config/mention-patterns.js";
import type { ChannelSettings } from "../src/config/schema.js";
import { PendingHistory, resolveHistoryLimit } from "../src/groups/history.js";
import { compileMentionPatterns, detectMention } from "../src/groups/mentions.js";
import { StateStore } from "../src/state/index.js";
import { recordFigures } from "./support/results.js";
import { megabytes } from "./support/stats.js";

// Non-triggering group messages through the real pipeline pieces the gateway runs before deciding
// not to start a turn: checkAccess (groupPolicy allowlist + groups "*" + groupAllowFrom by E.164),
// detectMention (default patterns of "Chorus" + the bot's E.164), PendingHistory.add (limit 50).

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
/** One message through access → mention → buffer; throws if it would have triggered or been blocked. */
async function nonTriggering(history: PendingHistory, group: number, text: string): Promise<void> {
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
  history.add(
    `agent:main:whatsapp:group:${conversationId}`,
    { sender: sender.name, e164: sender.e164, text, messageId: `3EB0${counter.toString(16)}`, at: Date.now() },
    LIMIT,
  );
}

// Throughput: one core (this worker's thread), 1,000 busy groups round-robin.
const throughputHistory = new PendingHistory({ maxGroups: GROUPS });
for (let i = 0; i < 20_000; i++) await nonTriggering(throughputHistory, i % 1_000, texts[i % texts.length] as string);
const start = performance.now();
for (let i = 0; i < MESSAGES; i++) await nonTriggering(throughputHistory, i % 1_000, texts[i % texts.length] as string);
const seconds = (performance.now() - start) / 1000;
console.log(
  `non-triggering group messages (checkAccess + detectMention + PendingHistory.add): ` +
    `${Math.round(MESSAGES / seconds).toLocaleString("en")}/s on one core ` +
    `(${MESSAGES.toLocaleString("en")} messages over 1,000 groups, target ≥ 50,000/s)`,
);

// Memory: 10,000 groups × 50 pending messages, each with its own ~80-character text.
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const heap = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
const fill = async (history: PendingHistory, firstGroup: number): Promise<void> => {
  for (let round = 0; round < LIMIT; round++) {
    for (let group = firstGroup; group < firstGroup + GROUPS; group++) await nonTriggering(history, group, sentence());
  }
};
const before = heap();
const history = new PendingHistory({ maxGroups: GROUPS });
await fill(history, 0);
const full = heap();
await fill(history, GROUPS); // 10,000 more groups: the LRU drops the first 10,000
const after = heap();
if (history.size !== GROUPS || history.messageCount !== GROUPS * LIMIT) {
  throw new Error(`expected ${GROUPS} groups × ${LIMIT}, got ${history.size} groups, ${history.messageCount} messages`);
}
console.log(
  `pending history, ${GROUPS.toLocaleString("en")} groups × ${LIMIT} messages: JS heap +${megabytes(full - before)} ` +
    `(${Math.round((full - before) / (GROUPS * LIMIT))} bytes a message); after 10,000 more groups (LRU maxGroups ` +
    `${GROUPS.toLocaleString("en")}): +${megabytes(after - before)}, still ${history.messageCount.toLocaleString("en")} messages`,
);

recordFigures("groups", {
  nonTriggeringPerSecond: {
    value: MESSAGES / seconds,
    unit: "messages/s",
    target: "≥ 50000",
    what: "checkAccess + detectMention + PendingHistory.add, one core, in process",
  },
  pendingBytesPerMessage: { value: (full - before) / (GROUPS * LIMIT), unit: "bytes" },
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let next = 0;
describe("non-triggering group message", () => {
  bench("checkAccess + detectMention + PendingHistory.add", async () => {
    next++;
    await nonTriggering(throughputHistory, next % 1_000, texts[next % texts.length] as string);
  });
});
