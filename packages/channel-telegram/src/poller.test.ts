import { silentLogger } from "@chorus/core";
import { waitFor } from "@chorus/testkit";
import { Api } from "grammy";
import { afterEach, describe, expect, it } from "vitest";
import { telegramConfigSchema } from "./config.js";
import { Poller } from "./poller.js";
import { createFakeTelegram, type FakeTelegram } from "./testing/index.js";
import type { UpdateSink } from "./update-sink.js";

const ANN = { id: 501, is_bot: false as const, first_name: "Ann" };
const CHAT = -1004000000001;

/** A sink whose commits the test settles by hand, one update at a time. */
function heldSink() {
  const held: { id: number; resolve(): void; reject(error: Error): void }[] = [];
  const sink = {
    accept: (update: unknown) =>
      new Promise<boolean>((resolve, reject) => {
        held.push({ id: (update as { update_id: number }).update_id, resolve: () => resolve(true), reject });
      }),
  } as unknown as UpdateSink;
  return { sink, held };
}

describe("the poller confirms an update only after the gateway committed it", () => {
  let fake: FakeTelegram | undefined;
  let poller: Poller | undefined;
  afterEach(async () => {
    await poller?.stop();
    await fake?.server.close();
  });

  async function start(sink: UpdateSink) {
    fake = createFakeTelegram();
    await fake.start();
    fake.addChat({ id: CHAT, type: "supergroup", title: "Family" });
    const config = telegramConfigSchema.parse({
      ...fake.config(),
      pollTimeoutMs: 1_000,
      reconnectMinMs: 50,
      reconnectMaxMs: 100,
    });
    const api = new Api(config.botToken, { apiRoot: config.apiRoot });
    poller = new Poller(api, config, sink, silentLogger, new AbortController().signal);
    poller.start();
    return fake;
  }
  const offsets = () =>
    (fake as FakeTelegram).server
      .requestsTo("POST", /\/getUpdates$/)
      .map((r) => (r.body as { offset?: number }).offset ?? 0);

  it("holds the offset while the commit is pending, and moves past the update once it resolves", async () => {
    const { sink, held } = heldSink();
    const telegram = await start(sink);
    telegram.userSends({ chatId: CHAT, from: ANN, text: "one" });
    await waitFor(() => held.length === 1, { timeoutMs: 5_000, message: "the update handed to the sink" });
    const id = held[0]?.id as number;
    // Not committed yet: Telegram still holds the update, and no poll confirmed it.
    expect(telegram.state.pending.map((u) => u.update_id)).toEqual([id]);
    expect(offsets().every((offset) => offset <= id)).toBe(true);
    held[0]?.resolve();
    // The next poll carries the offset past it: Telegram drops it.
    await waitFor(() => telegram.state.pending.length === 0, { timeoutMs: 5_000, message: "the update confirmed" });
  });

  it("a failed commit leaves that update and the ones after it with Telegram, which delivers them again", async () => {
    const { sink, held } = heldSink();
    const telegram = await start(sink);
    for (const text of ["a", "b", "c"]) telegram.userSends({ chatId: CHAT, from: ANN, text });
    await waitFor(() => held.length === 3, { timeoutMs: 5_000, message: "three updates handed to the sink" });
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
