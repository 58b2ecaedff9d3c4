import type { Receiver } from "@chorus/channel-kit";
import { MemoryStore } from "@chorus/channel-kit/state";
import { type InboundEvent, silentLogger } from "@chorus/core";
import { waitFor } from "@chorus/testkit";
import { Api } from "grammy";
import { afterEach, describe, expect, it } from "vitest";
import { ChatAliases } from "./chat-aliases.js";
import { telegramConfigSchema } from "./config.js";
import { Poller } from "./poller.js";
import { createTelegramReceiver } from "./receive.js";
import { createFakeTelegram, type FakeTelegram } from "./testing/index.js";

const ANN = { id: 501, is_bot: false as const, first_name: "Ann" };
const CHAT = -1004000000001;

/** The plugin's receiver on a host whose commits the test settles by hand, one update at a time. */
function heldCommits(fake: () => FakeTelegram) {
  const held: { id: number; resolve(): void; reject(error: Error): void }[] = [];
  const emit = (event: InboundEvent) =>
    new Promise<void>((resolve, reject) => {
      held.push({ id: Number(event.eventId), resolve, reject });
    });
  const receiver = createTelegramReceiver({
    running: () => ({
      scope: { channel: "telegram", accountId: "default", botId: String(fake().bot.id) },
      bot: fake().bot,
    }),
    aliases: new ChatAliases(new MemoryStore()),
    emit,
    logger: silentLogger,
    signal: new AbortController().signal,
  });
  return { receiver, held };
}

describe("the poller confirms an update only after the gateway committed it", () => {
  let fake: FakeTelegram | undefined;
  let poller: Poller | undefined;
  afterEach(async () => {
    await poller?.stop();
    await fake?.server.close();
  });

  /** A started fake and a poller on it whose commits the test settles. */
  async function start() {
    const telegram = createFakeTelegram();
    fake = telegram;
    const { receiver, held } = heldCommits(() => telegram);
    await telegram.start();
    poller = pollerOn(telegram, receiver);
    return { telegram, held };
  }

  function pollerOn(telegram: FakeTelegram, receiver: Receiver<unknown>): Poller {
    telegram.addChat({ id: CHAT, type: "supergroup", title: "Family" });
    const config = telegramConfigSchema.parse({
      ...telegram.config(),
      pollTimeoutMs: 1_000,
      reconnectMinMs: 50,
      reconnectMaxMs: 100,
    });
    const api = new Api(config.botToken, { apiRoot: config.apiRoot });
    const started = new Poller(api, config, receiver, silentLogger, new AbortController().signal);
    started.start();
    return started;
  }
  const offsets = () =>
    (fake as FakeTelegram).server
      .requestsTo("POST", /\/getUpdates$/)
      .map((r) => (r.body as { offset?: number }).offset ?? 0);

  it("holds the offset while the commit is pending, and moves past the update once it resolves", async () => {
    const { telegram, held } = await start();
    telegram.userSends({ chatId: CHAT, from: ANN, text: "one" });
    await waitFor(() => held.length === 1, { timeoutMs: 5_000, message: "the update handed to the gateway" });
    const id = held[0]?.id as number;
    // Not committed yet: Telegram still holds the update, and no poll confirmed it.
    expect(telegram.state.pending.map((u) => u.update_id)).toEqual([id]);
    expect(offsets().every((offset) => offset <= id)).toBe(true);
    held[0]?.resolve();
    // The next poll carries the offset past it: Telegram drops it.
    await waitFor(() => telegram.state.pending.length === 0, { timeoutMs: 5_000, message: "the update confirmed" });
  });

  it("a failed commit leaves that update and the ones after it with Telegram, which delivers them again", async () => {
    const { telegram, held } = await start();
    for (const text of ["a", "b", "c"]) telegram.userSends({ chatId: CHAT, from: ANN, text });
    await waitFor(() => held.length === 3, { timeoutMs: 5_000, message: "three updates handed to the gateway" });
    const [a, b, c] = held as [(typeof held)[0], (typeof held)[0], (typeof held)[0]];
    a.resolve();
    b.reject(new Error("the database is gone"));
    c.resolve();
    // The next poll confirms a only: b and c come again.
    await waitFor(() => held.length >= 5, { timeoutMs: 5_000, message: "b and c delivered again" });
    expect(held.slice(3).map((h) => h.id)).toEqual([b.id, c.id]);
    expect(telegram.state.pending.map((u) => u.update_id)).toEqual([b.id, c.id]);
    for (const h of held.slice(3)) h.resolve();
    await waitFor(() => telegram.state.pending.length === 0, { timeoutMs: 5_000, message: "all confirmed" });
  });
});
