import { removeHome, startGatewayProcess } from "../test/support/gateway-process.js";
import {
  ACCOUNTS,
  ANN,
  BOB,
  chatter,
  cpuSeconds,
  groupOf,
  openInbox,
  roomOf,
  runningAccounts,
  startAccountFakes,
  TALK_BOTS,
  TELEGRAM_BOTS,
  until,
} from "./support/accounts-world.js";
import { processRss } from "./support/cold-start.js";
import { recordFigures } from "./support/results.js";
import { benchRunAtLoad } from "./support/run-at-load.js";
import { megabytes } from "./support/stats.js";

// One gateway with 100 Telegram bot accounts and 20 Nextcloud Talk bot accounts against their
// fakes (100 fake Bot APIs, one fake Talk serving the 20 bots): how long it takes to start, what
// each account costs in RSS, and how many non-triggering group messages a second it takes in
// across them — each one long-polled (Telegram) or posted as a signed webhook (Talk), committed to
// the durable inbox, then taken through the access rules, mention detection and the group's
// pending history (no mention: no turn), and marked done.

const TELEGRAM_MESSAGES_PER_BOT = 200;
const TALK_MESSAGES_PER_BOT = 100;
const MB = 1024 * 1024;

// The baseline: the same gateway with no channel account (webchat only), for RSS per account.
const baseline = await startGatewayProcess({ config: {} });
await new Promise((resolve) => setTimeout(resolve, 2_000));
const baselineRss = await processRss(baseline.process.pid as number);
await baseline.stop();
await removeHome(baseline.home);

const fakes = await startAccountFakes();
const access = { groupPolicy: "open", dmPolicy: "pairing" };

// CHORUS_BENCH_PROFILE=<dir>: the gateway writes a CPU profile there when it stops (node --cpu-prof).
const profileDir = process.env.CHORUS_BENCH_PROFILE;
const startedAt = performance.now();
const gateway = await startGatewayProcess({
  ...(profileDir ? { nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] } : {}),
  config: fakes.config(access),
});
const listeningMs = performance.now() - startedAt;
await until(async () => (await runningAccounts(gateway)) === ACCOUNTS, 120_000, `${ACCOUNTS} accounts running`);
const allRunningMs = performance.now() - startedAt;
await new Promise((resolve) => setTimeout(resolve, 2_000));
const rss = await processRss(gateway.process.pid as number);
const rssPerAccount = (rss - baselineRss) / ACCOUNTS;

const bots = fakes.installTalkBots(gateway.url);
const inbox = openInbox(gateway.home);
const expected = TELEGRAM_BOTS * TELEGRAM_MESSAGES_PER_BOT + TALK_BOTS * TALK_MESSAGES_PER_BOT;

const pid = gateway.process.pid as number;
const cpuBefore = cpuSeconds(pid);
const throughputStart = performance.now();
// Telegram: every bot's fake queues its messages at once; the gateway long-polls them in batches.
for (const [i, fake] of fakes.telegrams.entries()) {
  for (let n = 0; n < TELEGRAM_MESSAGES_PER_BOT; n++)
    fake.userSends({ chatId: groupOf(i), from: ANN, text: chatter(n) });
}
// Talk: each bot's webhooks are posted one after another (Talk waits for each answer), the 20 bots at once.
const posted = Promise.all(
  bots.map(async (bot, i) => {
    for (let n = 0; n < TALK_MESSAGES_PER_BOT; n++) {
      await fakes.deliverTalk(i, bot, fakes.talk.userSends({ token: roomOf(i), user: BOB, message: chatter(n) }));
    }
  }),
);
await posted;
await until(
  () => {
    const { total, open } = inbox.counts();
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
const { total } = inbox.counts();
inbox.close();
const turns = gateway.logs().filter((line) => line.msg === "turn started" || line.msg === "turn done").length;
const unconfirmed = fakes.telegrams.reduce((sum, fake) => sum + fake.state.pending.length, 0);

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
await fakes.close();

benchRunAtLoad("many accounts", () => {
  if (total < expected) throw new Error("not every message reached the inbox");
});
