import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createFakeTalk, type FakeBot, type FakeTalk } from "@chorus/channel-nextcloud/testing";
import { createFakeTelegram, type FakeTelegram } from "@chorus/channel-telegram/testing";
import { DatabaseSync } from "@photostructure/sqlite";
import { bench, describe } from "vitest";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../test/support/gateway-process.js";
import { processRss } from "./support/cold-start.js";
import { recordFigures } from "./support/results.js";
import { megabytes } from "./support/stats.js";

// One gateway with 100 Telegram bot accounts and 20 Nextcloud Talk bot accounts against their
// fakes (100 fake Bot APIs, one fake Talk serving the 20 bots): how long it takes to start, what
// each account costs in RSS, and how many non-triggering group messages a second it takes in
// across them — each one long-polled (Telegram) or posted as a signed webhook (Talk), committed to
// the durable inbox, then taken through the access rules, mention detection and the group's
// pending history (no mention: no turn), and marked done.

const TELEGRAM_BOTS = 100;
const TALK_BOTS = 20;
const TELEGRAM_MESSAGES_PER_BOT = 200;
const TALK_MESSAGES_PER_BOT = 100;
const ACCOUNTS = TELEGRAM_BOTS + TALK_BOTS;
const MB = 1024 * 1024;
const plugin = (id: string) => fileURLToPath(new URL(`../../../packages/channel-${id}`, import.meta.url));
const secretOf = (i: number) => `bench-talk-secret-${i}-`.padEnd(64, "x");
const GROUP = (i: number) => -1_003_000_000_000 - i;
const ANN = { id: 7001, is_bot: false as const, first_name: "Ann" };

/** Polls `check` every 100 ms until it is true or `timeoutMs` passed. */
async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** CPU time (user + system) a process has used so far, in seconds, from `/proc/<pid>/stat`. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Channel accounts the gateway reports running (`GET /v1/channels`). */
async function running(gateway: GatewayProcess): Promise<number> {
  const { json } = await gateway.call("GET", "/v1/channels");
  return (json.channels as { id: string; status: { state: string } }[]).filter(
    (c) => c.id !== "webchat" && c.status.state === "running",
  ).length;
}

// The baseline: the same gateway with no channel account (webchat only), for RSS per account.
const baseline = await startGatewayProcess({ config: {} });
await new Promise((resolve) => setTimeout(resolve, 2_000));
const baselineRss = await processRss(baseline.process.pid as number);
await baseline.stop();
await removeHome(baseline.home);

const telegrams: FakeTelegram[] = [];
for (let i = 0; i < TELEGRAM_BOTS; i++) {
  const fake = createFakeTelegram({
    token: `${900_000 + i}:BENCH-token-${String(i).padStart(3, "0")}_abcdefghijklmnopq`,
    bot: { username: `chorus_bench_${i}_bot` },
  });
  await fake.start();
  fake.addChat({ id: GROUP(i), type: "supergroup", title: `Team ${i}` });
  telegrams.push(fake);
}
const talk: FakeTalk = createFakeTalk();
await talk.start();
const telegramAccounts = Object.fromEntries(
  telegrams.map((fake, i) => [`tg${i}`, fake.config({ pollTimeoutMs: 10_000 })]),
);
const talkAccounts = Object.fromEntries(
  Array.from({ length: TALK_BOTS }, (_, i) => [
    `nc${i}`,
    { baseUrl: talk.url, secret: secretOf(i), botName: "Chorus" },
  ]),
);
const access = { groupPolicy: "open", dmPolicy: "pairing" };

// CHORUS_BENCH_PROFILE=<dir>: the gateway writes a CPU profile there when it stops (node --cpu-prof).
const profileDir = process.env.CHORUS_BENCH_PROFILE;
const startedAt = performance.now();
const gateway = await startGatewayProcess({
  ...(profileDir ? { nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] } : {}),
  config: {
    plugins: { load: [plugin("telegram"), plugin("nextcloud")] },
    channels: {
      telegram: { ...access, accounts: telegramAccounts },
      nextcloud: { ...access, accounts: talkAccounts },
    },
  },
});
const listeningMs = performance.now() - startedAt;
await until(async () => (await running(gateway)) === ACCOUNTS, 120_000, `${ACCOUNTS} accounts running`);
const allRunningMs = performance.now() - startedAt;
await new Promise((resolve) => setTimeout(resolve, 2_000));
const rss = await processRss(gateway.process.pid as number);
const rssPerAccount = (rss - baselineRss) / ACCOUNTS;

const bots: FakeBot[] = Array.from({ length: TALK_BOTS }, (_, i) => {
  const bot = talk.installBot({ name: "Chorus", secret: secretOf(i), url: `${gateway.url}/hooks/nextcloud/nc${i}` });
  talk.addRoom({ token: `room${i}`, name: `Room ${i}` });
  talk.setupBot(bot, `room${i}`);
  return bot;
});
const bob = { id: "bob", name: "Bob" };

const db = new DatabaseSync(`${gateway.home}/chorus.db`, { readOnly: true });
const inboxCount = db.prepare("SELECT count(*) AS total, coalesce(sum(status = 'received'), 0) AS open FROM inbox");
const expected = TELEGRAM_BOTS * TELEGRAM_MESSAGES_PER_BOT + TALK_BOTS * TALK_MESSAGES_PER_BOT;
const words = "did anyone see the game last night maybe lunch tomorrow at noon sounds good".split(" ");
const text = (n: number) => `${words.slice(0, 4 + (n % 8)).join(" ")} #${n}`;

const pid = gateway.process.pid as number;
const cpuBefore = cpuSeconds(pid);
const throughputStart = performance.now();
// Telegram: every bot's fake queues its messages at once; the gateway long-polls them in batches.
for (const [i, fake] of telegrams.entries()) {
  for (let n = 0; n < TELEGRAM_MESSAGES_PER_BOT; n++) fake.userSends({ chatId: GROUP(i), from: ANN, text: text(n) });
}
// Talk: each bot's webhooks are posted one after another (Talk waits for each answer), the 20 bots at once.
const posted = Promise.all(
  bots.map(async (bot, i) => {
    for (let n = 0; n < TALK_MESSAGES_PER_BOT; n++) {
      const hook = talk.userSends({ token: `room${i}`, user: bob, message: text(n) });
      const response = await talk.deliver(`${gateway.url}/hooks/nextcloud/nc${i}`, bot, hook);
      if (response.status !== 200) throw new Error(`Talk webhook answered ${response.status}`);
    }
  }),
);
await posted;
await until(
  () => {
    const { total, open } = inboxCount.get() as { total: number; open: number };
    return total >= expected && open === 0;
  },
  300_000,
  `${expected} messages through the inbox`,
);
const throughputSeconds = (performance.now() - throughputStart) / 1000;
const perSecond = expected / throughputSeconds;
// On a shared machine the wall clock says as much about the neighbours as about the gateway: the
// gateway's own CPU time per message is the figure that holds from run to run.
const perCpuSecond = expected / (cpuSeconds(pid) - cpuBefore);
const { total } = inboxCount.get() as { total: number };
db.close();
const turns = gateway.logs().filter((line) => line.msg === "turn started" || line.msg === "turn done").length;
const unconfirmed = telegrams.reduce((sum, fake) => sum + fake.state.pending.length, 0);

console.log(
  `${TELEGRAM_BOTS} Telegram + ${TALK_BOTS} Nextcloud accounts (fakes): listening after ${listeningMs.toFixed(0)} ms, ` +
    `all ${ACCOUNTS} running after ${allRunningMs.toFixed(0)} ms; RSS ${megabytes(rss)} vs ${megabytes(baselineRss)} webchat only ` +
    `= ${(rssPerAccount / MB).toFixed(2)} MB an account (target ≤ 1 MB)`,
);
console.log(
  `non-triggering group messages across the ${ACCOUNTS} accounts (inbox commit, access, mention, pending history, done): ` +
    `${Math.round(perSecond).toLocaleString("en")}/s (${expected.toLocaleString("en")} in ${throughputSeconds.toFixed(1)} s; ` +
    `inbox rows ${total}, ${unconfirmed} Telegram updates unconfirmed, ${turns} turn log lines; target ≥ 10,000/s); ` +
    `${Math.round(perCpuSecond).toLocaleString("en")} a second of the gateway's CPU time (${((1000 * 1000) / perCpuSecond).toFixed(0)} µs a message)`,
);
recordFigures("accounts", {
  listeningMs: { value: listeningMs, unit: "ms", what: `spawn → listening, ${ACCOUNTS} accounts configured` },
  allRunningMs: { value: allRunningMs, unit: "ms", what: `spawn → all ${ACCOUNTS} accounts running` },
  rssMB: { value: rss / MB, unit: "MB", what: "2 s after all accounts running" },
  rssPerAccountMB: {
    value: rssPerAccount / MB,
    unit: "MB",
    target: "≤ 1",
    what: "(RSS − webchat-only RSS) / accounts",
  },
  inboundPerSecond: {
    value: perSecond,
    unit: "messages/s",
    target: "≥ 10000",
    what: "non-triggering group messages: platform → inbox → access, mention, pending history → done",
  },
  inboundPerCpuSecond: {
    value: perCpuSecond,
    unit: "messages/CPU-s",
    what: "the same per second of the gateway process's own CPU time (user + system)",
  },
});

await gateway.stop();
await removeHome(gateway.home);
await talk.close();
await Promise.all(telegrams.map((fake) => fake.close()));

describe("many accounts", () => {
  bench(
    "figures above (the run happens once, at load)",
    () => {
      if (total < expected) throw new Error("not every message reached the inbox");
    },
    { iterations: 1, time: 0, warmupIterations: 0, warmupTime: 0 },
  );
});
