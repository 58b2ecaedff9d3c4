import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createFakeTalk, type FakeBot, type FakeTalk } from "@chorus/channel-nextcloud/testing";
import { createFakeTelegram, type FakeTelegram } from "@chorus/channel-telegram/testing";
import { DatabaseSync } from "@photostructure/sqlite";
import type { GatewayProcess } from "../../test/support/gateway-process.js";

// The many-accounts world of the accounts and soak benchmarks: 100 Telegram bot accounts, each
// against its own fake Bot API with one supergroup, and 20 Nextcloud Talk bot accounts against one
// fake Talk, each bot in its own room; what it takes to point a gateway at them and read its inbox.

export const TELEGRAM_BOTS = 100;
export const TALK_BOTS = 20;
export const ACCOUNTS = TELEGRAM_BOTS + TALK_BOTS;

/** The supergroup of Telegram bot `i`. */
export const groupOf = (i: number) => -1_003_000_000_000 - i;
/** The room of Talk bot `i`. */
export const roomOf = (i: number) => `room${i}`;
/** Who writes in the Telegram groups. */
export const ANN = { id: 7001, is_bot: false as const, first_name: "Ann" };
/** Who writes in the Talk rooms. */
export const BOB = { id: "bob", name: "Bob" };

const plugin = (id: string) => fileURLToPath(new URL(`../../../../packages/channel-${id}`, import.meta.url));
const secretOf = (i: number) => `bench-talk-secret-${i}-`.padEnd(64, "x");
const words = "did anyone see the game last night maybe lunch tomorrow at noon sounds good".split(" ");

/** The `n`th line of group chatter: a few everyday words that mention no one. */
export const chatter = (n: number) => `${words.slice(0, 4 + (n % 8)).join(" ")} #${n}`;

/** Polls `check` every 100 ms until it is true or `timeoutMs` passed. */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** CPU time (user + system) a process has used so far, in seconds, from `/proc/<pid>/stat`. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Channel accounts the gateway reports running (`GET /v1/channels`). */
export async function runningAccounts(gateway: GatewayProcess): Promise<number> {
  const { json } = await gateway.call("GET", "/v1/channels");
  return (json.channels as { id: string; status: { state: string } }[]).filter(
    (c) => c.id !== "webchat" && c.status.state === "running",
  ).length;
}

/** The fakes behind the 120 accounts, running. */
export interface AccountFakes {
  telegrams: FakeTelegram[];
  talk: FakeTalk;
  /** The gateway config with every account, `access` (dmPolicy, groupPolicy, …) on both channels. */
  config(access: Record<string, unknown>): Record<string, unknown>;
  /** Installs each Talk bot with its webhook on `gatewayUrl` and enables it in its room. */
  installTalkBots(gatewayUrl: string): FakeBot[];
  /** Posts a signed Talk webhook to Talk account `i`'s hook; throws unless the gateway answers 200. */
  deliverTalk(i: number, bot: FakeBot, hook: object): Promise<void>;
  close(): Promise<void>;
}

/** Starts the 100 fake Bot APIs (each with its supergroup) and the fake Talk. */
export async function startAccountFakes(): Promise<AccountFakes> {
  const telegrams: FakeTelegram[] = [];
  for (let i = 0; i < TELEGRAM_BOTS; i++) {
    const fake = createFakeTelegram({
      token: `${900_000 + i}:BENCH-token-${String(i).padStart(3, "0")}_abcdefghijklmnopq`,
      bot: { username: `chorus_bench_${i}_bot` },
    });
    await fake.start();
    fake.addChat({ id: groupOf(i), type: "supergroup", title: `Team ${i}` });
    telegrams.push(fake);
  }
  const talk = createFakeTalk();
  await talk.start();
  let hookUrl = (_i: number) => "";
  return {
    telegrams,
    talk,
    config: (access) => ({
      plugins: { load: [plugin("telegram"), plugin("nextcloud")] },
      channels: {
        telegram: {
          ...access,
          accounts: Object.fromEntries(telegrams.map((fake, i) => [`tg${i}`, fake.config({ pollTimeoutMs: 10_000 })])),
        },
        nextcloud: {
          ...access,
          accounts: Object.fromEntries(
            Array.from({ length: TALK_BOTS }, (_, i) => [
              `nc${i}`,
              { baseUrl: talk.url, secret: secretOf(i), botName: "Chorus" },
            ]),
          ),
        },
      },
    }),
    installTalkBots(gatewayUrl) {
      hookUrl = (i) => `${gatewayUrl}/hooks/nextcloud/nc${i}`;
      return Array.from({ length: TALK_BOTS }, (_, i) => {
        const bot = talk.installBot({ name: "Chorus", secret: secretOf(i), url: hookUrl(i) });
        talk.addRoom({ token: roomOf(i), name: `Room ${i}` });
        talk.setupBot(bot, roomOf(i));
        return bot;
      });
    },
    async deliverTalk(i, bot, hook) {
      const response = await talk.deliver(hookUrl(i), bot, hook);
      if (response.status !== 200) throw new Error(`Talk webhook of nc${i} answered ${response.status}`);
    },
    async close() {
      await talk.close();
      await Promise.all(telegrams.map((fake) => fake.close()));
    },
  };
}

/** The gateway's durable inbox, read from its SQLite file beside it. */
export interface InboxReader {
  /** Rows committed, and of them those still `received` (not yet taken through the pipeline). */
  counts(): { total: number; open: number };
  close(): void;
}

/** Opens the inbox of the gateway whose home is `home`, read-only. */
export function openInbox(home: string): InboxReader {
  const db = new DatabaseSync(`${home}/chorus.db`, { readOnly: true });
  const query = db.prepare("SELECT count(*) AS total, coalesce(sum(status = 'received'), 0) AS open FROM inbox");
  return {
    counts: () => query.get() as { total: number; open: number },
    close: () => db.close(),
  };
}
