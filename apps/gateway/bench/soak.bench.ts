import { gcEveryNodeArgs } from "../src/testing/index.js";
import { removeHome, startGatewayProcess } from "../test/support/gateway-process.js";
import {
  ACCOUNTS,
  cpuSeconds,
  type InboxReader,
  openInbox,
  runningAccounts,
  startAccountFakes,
  until,
} from "./support/accounts-world.js";
import { type Halves, halvesOf, heapUsedBytes, type MemoryPoint, sampleMemory } from "./support/memory-samples.js";
import { recordFigures } from "./support/results.js";
import { benchRunAtLoad } from "./support/run-at-load.js";
import { createSoakTraffic, RATES, type SoakTraffic } from "./support/soak-traffic.js";
import { megabytes } from "./support/stats.js";

// A soak: one gateway with the 120 accounts of the accounts benchmark (100 Telegram, 20 Nextcloud
// Talk, against their fakes) under steady mixed traffic (support/soak-traffic.ts: group chatter,
// DMs and mentions answered by the offline demo agent, photos and voice notes, reactions) for
// CHORUS_SOAK_MINUTES (1.5 in `pnpm bench`, 30 with `pnpm bench:soak`) after a warm-up, its RSS and
// JS heap read every few seconds: does memory still grow in the second half as in the first?
//
// The run happens at load, as in the other benchmarks: vitest's bench runner times out neither a
// file's import nor a bench function, and runs no hooks.

const MB = 1024 * 1024;
const SAMPLE_EVERY_MS = 3_000;
const DRAIN_TIMEOUT_MS = 120_000;

/** The measured minutes: CHORUS_SOAK_MINUTES, else a quick 1.5. */
function soakMinutes(): number {
  const minutes = Number(process.env.CHORUS_SOAK_MINUTES ?? 1.5);
  if (!(minutes > 0)) throw new Error(`CHORUS_SOAK_MINUTES must be a number of minutes above 0, not ${minutes}`);
  return minutes;
}

const durationMs = soakMinutes() * 60_000;
// Long enough for every lazily loaded path (a turn, media, /metrics) to have run a few times.
const warmupMs = Math.min(60_000, Math.max(20_000, durationMs / 20));
// A point's samples: wide enough to smooth a few collections over, narrow beside a half.
const windowMs = Math.max(2 * SAMPLE_EVERY_MS, durationMs / 20);

/** Waits until every message sent went through the inbox and every turn started was answered. */
async function drain(traffic: SoakTraffic, inbox: InboxReader, unconfirmed: () => number): Promise<void> {
  await traffic.settled();
  await until(
    () => {
      const { total, open } = inbox.counts();
      return (
        total >= traffic.counts().inbound && open === 0 && traffic.counts().outstanding === 0 && unconfirmed() === 0
      );
    },
    DRAIN_TIMEOUT_MS,
    "every message through the inbox and every turn answered",
  );
}

/** Throws unless each message sent is one inbox row and each turn started got exactly one reply. */
function checkEveryMessageProcessed(traffic: SoakTraffic, inbox: InboxReader): void {
  const counts = traffic.counts();
  const { total } = inbox.counts();
  if (total !== counts.inbound) throw new Error(`${counts.inbound} messages sent, but ${total} inbox rows`);
  if (counts.replies !== counts.triggers || counts.unexpectedReplies > 0) {
    throw new Error(
      `${counts.triggers} turns started, ${counts.replies} answered, ${counts.unexpectedReplies} replies unexpected`,
    );
  }
}

const growth = (from: number, to: number) => (to - from) / MB;
const rss = (point: MemoryPoint) => point.rssBytes;
const heap = (point: MemoryPoint) => point.heapBytes;

/** `RSS 120.3 → 124.0 → 124.5 MB (+3.7, +0.5 MB; +0.08, +0.01 MB/min)`. */
function describeHalves(label: string, halves: Halves, read: (point: MemoryPoint) => number): string {
  const first = growth(read(halves.start), read(halves.half));
  const second = growth(read(halves.half), read(halves.end));
  const perMinute = (mb: number) => (mb / halves.halfMinutes).toFixed(2);
  return (
    `${label} ${megabytes(read(halves.start))} → ${megabytes(read(halves.half))} → ${megabytes(read(halves.end))} ` +
    `(halves ${first >= 0 ? "+" : ""}${first.toFixed(1)}, ${second >= 0 ? "+" : ""}${second.toFixed(1)} MB; ` +
    `${perMinute(first)}, ${perMinute(second)} MB/min)`
  );
}

/** The figures of one memory measure (`rss` or `heap`): the three points and each half's growth. */
function memoryFigures(name: string, halves: Halves, read: (point: MemoryPoint) => number, how: string) {
  const first = growth(read(halves.start), read(halves.half));
  const second = growth(read(halves.half), read(halves.end));
  return {
    [`${name}StartMB`]: { value: read(halves.start) / MB, unit: "MB", what: `${how}, as the measured traffic starts` },
    [`${name}HalfMB`]: { value: read(halves.half) / MB, unit: "MB", what: `${how}, at the half` },
    [`${name}EndMB`]: { value: read(halves.end) / MB, unit: "MB", what: `${how}, at the end` },
    [`${name}GrowthFirstHalfMB`]: { value: first, unit: "MB", what: "half − start" },
    [`${name}GrowthSecondHalfMB`]: { value: second, unit: "MB", what: "end − half" },
    [`${name}GrowthFirstHalfMBPerMin`]: { value: first / halves.halfMinutes, unit: "MB/min", what: "the first half's" },
    [`${name}GrowthSecondHalfMBPerMin`]: {
      value: second / halves.halfMinutes,
      unit: "MB/min",
      what:
        name === "heap"
          ? "the second half's; ≈ 0 when nothing leaks (a warmed-up gateway's heap floor stays put)"
          : "the second half's",
    },
  };
}

const fakes = await startAccountFakes();
// A full collection just as often as the samples are read: the heap read is what the gateway keeps,
// not how much garbage the last minor collections left, so a growing floor is a leak, not noise.
const gateway = await startGatewayProcess({
  config: fakes.config({ groupPolicy: "open", dmPolicy: "open" }),
  nodeArgs: gcEveryNodeArgs(SAMPLE_EVERY_MS),
});
await until(async () => (await runningAccounts(gateway)) === ACCOUNTS, 120_000, `${ACCOUNTS} accounts running`);
const bots = fakes.installTalkBots(gateway.url);
const inbox = openInbox(gateway.home);
const unconfirmed = () => fakes.telegrams.reduce((sum, fake) => sum + fake.state.pending.length, 0);
const traffic = createSoakTraffic(fakes, bots);
const pid = gateway.process.pid as number;

await heapUsedBytes(gateway); // the first scrape loads prom-client: in the warm-up, not in the measure
await traffic.runFor(warmupMs);
const atStart = { ...traffic.counts(), rows: inbox.counts().total, cpu: cpuSeconds(pid) };
const sampler = sampleMemory(gateway, SAMPLE_EVERY_MS);
await traffic.runFor(durationMs);
const samples = await sampler.stop();
const atEnd = { ...traffic.counts(), cpu: cpuSeconds(pid) };
await drain(traffic, inbox, unconfirmed);
checkEveryMessageProcessed(traffic, inbox);
const processed = inbox.counts().total;
inbox.close();

const halves = halvesOf(samples, durationMs, windowMs);
const measured = atEnd.inbound - atStart.inbound;
const turns = atEnd.triggers - atStart.triggers;
const cpuPercent = (100 * (atEnd.cpu - atStart.cpu)) / (durationMs / 1000);
const perSecond = (kinds: number) => (kinds / (durationMs / 1000)).toFixed(0);
console.log(
  `soak, ${ACCOUNTS} accounts, ${soakMinutes()} min after ${(warmupMs / 1000).toFixed(0)} s of warm-up ` +
    `(rates/s: ${Object.entries(RATES)
      .map(([kind, rate]) => `${kind} ${rate}`)
      .join(", ")}): ${measured.toLocaleString("en")} messages (${perSecond(measured)}/s), ${turns} turns answered, ` +
    `gateway CPU ${cpuPercent.toFixed(0)}% of a core; ${processed.toLocaleString("en")} inbox rows in all, every one ` +
    `processed, every turn answered once; ${samples.length} samples every ${SAMPLE_EVERY_MS / 1000} s`,
);
console.log(`  ${describeHalves("RSS", halves, rss)}`);
console.log(`  ${describeHalves("heap used (floor)", halves, heap)}`);
recordFigures("soak", {
  minutes: { value: soakMinutes(), unit: "min", what: `measured, after ${warmupMs / 1000} s of the same traffic` },
  messages: {
    value: measured,
    unit: "messages",
    what: "sent in the measured minutes (chatter, DMs, mentions, photos, voice notes, reactions), each one inbox row processed",
  },
  turns: { value: turns, unit: "turns", what: "of them DMs, mentions and media the demo agent answered" },
  gatewayCpuPercent: {
    value: cpuPercent,
    unit: "% of a core",
    what: "the gateway's CPU time over the measured minutes",
  },
  ...memoryFigures("rss", halves, rss, "VmRSS, the median of the samples near the point"),
  ...memoryFigures("heap", halves, heap, "nodejs_heap_size_used_bytes (/metrics), the lowest sample near the point"),
});

await gateway.stop();
await removeHome(gateway.home);
await fakes.close();

benchRunAtLoad("soak", () => {
  if (samples.length < 3) throw new Error("too few memory samples");
});
