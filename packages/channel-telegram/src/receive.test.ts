import { startChannel, waitFor } from "@chorus/testkit";
import { Api } from "grammy";
import { describe, expect, it } from "vitest";
import { ANN, GROUP, isText, telegramSession } from "./fake-group.test-util.js";
import { telegramChannel } from "./index.js";

const PUBLIC_HOOK = "https://bot.example.com/hooks/telegram/default";
const SECRET = "s3cret_token-ABC";
const NOT_COMMITTED =
  "telegram: the gateway could not commit an event; it is not acknowledged, so the platform delivers it again";

describe("receive, long polling: the offset confirms only what the gateway committed", () => {
  const t = telegramSession();

  it("a commit that fails once: the offset stays before the update, Telegram hands it out again, it is committed once", async () => {
    const running = await t.start();
    const handedOut: number[] = [];
    t.fake.state.hooks.delivered = (updates) => handedOut.push(...updates.map((u) => u.update_id));
    running.refuseCommit(isText("refused once"));
    t.fake.userSends({ chatId: GROUP, from: ANN, text: "refused once" });
    const id = t.fake.state.last?.update_id as number;

    await running.waitForEvent(isText("refused once"));
    expect(running.refused.filter(isText("refused once"))).toHaveLength(1);
    expect(running.events.filter(isText("refused once"))).toHaveLength(1);
    // Telegram handed the update out twice: the poll after the failed commit did not confirm it.
    expect(handedOut.filter((u) => u === id)).toHaveLength(2);
    const offsets = t.fake.server
      .requestsTo("POST", /\/getUpdates$/)
      .map((r) => (r.body as { offset?: number }).offset);
    const confirming = offsets.findIndex((offset) => (offset ?? 0) > id);
    expect(offsets.slice(0, confirming).every((offset) => (offset ?? 0) <= id)).toBe(true);
    expect(running.logs.at("warn").map((r) => r.message)).toEqual([NOT_COMMITTED]);
    // Once committed, the next poll confirms it.
    await waitFor(() => t.fake.state.pending.length === 0, { message: "the update confirmed" });
  });

  it("in a batch, the offset stops at the first update not committed: it and the ones after it come again", async () => {
    const running = await t.start({}, { start: false });
    for (const text of ["a", "b", "c"]) t.fake.userSends({ chatId: GROUP, from: ANN, text });
    running.refuseCommit(isText("b"));
    await running.instance.start();
    await running.waitForEvent(isText("b"));
    await waitFor(() => t.fake.state.pending.length === 0, { message: "all three confirmed" });
    expect(running.events.map((e) => (e.type === "message" ? e.text : e.type))).toEqual(["a", "c", "b"]);
    // c was committed with the batch and delivered again with b: the host dropped the repeat.
    expect(running.duplicates.filter(isText("c"))).toHaveLength(1);
  });

  it("an update it cannot read: a warning naming the problem, and confirmed (Telegram would only send it again)", async () => {
    const running = await t.start();
    const bad = t.fake.sendUnparseable();
    await waitFor(() => running.logs.at("warn").length > 0, { message: "a warning" });
    expect(running.logs.at("warn").map((r) => r.message)).toEqual([
      expect.stringMatching(
        new RegExp(`^telegram: skipped a delivery it cannot read: update ${bad.update_id}: message\\.chat: `),
      ),
    ]);
    await waitFor(() => t.fake.state.pending.length === 0, { message: "the unreadable update confirmed" });
    expect(running.events).toEqual([]);
  });
});

describe("receive, webhook: answered 2xx only once committed", () => {
  const t = telegramSession(
    { webhookUrl: PUBLIC_HOOK, secretToken: SECRET },
    { webhookRetry: { delayMs: 20, attempts: 250 } },
  );

  it("a commit that fails once: answered 503, Telegram retries the delivery, it is committed once", async () => {
    const running = await t.start();
    t.fake.forwardWebhook(`${running.hooksUrl}/hooks/telegram/default`);
    running.refuseCommit(isText("refused once"));
    t.fake.userSends({ chatId: GROUP, from: ANN, text: "refused once" });
    const id = t.fake.state.last?.update_id as number;

    await running.waitForEvent(isText("refused once"));
    await waitFor(() => t.fake.state.pending.length === 0, { message: "the update confirmed" });
    expect(t.fake.webhookAttempts.filter((a) => a.updateId === id).map((a) => a.status)).toEqual([503, 200]);
    expect(running.refused.filter(isText("refused once"))).toHaveLength(1);
    expect(running.events.filter(isText("refused once"))).toHaveLength(1);
    expect(running.logs.at("warn").map((r) => r.message)).toEqual([NOT_COMMITTED]);
    // What Telegram tells the bot's owner about the failed delivery, through grammY.
    const info = await new Api(t.fake.token, { apiRoot: t.fake.url }).getWebhookInfo();
    expect(info).toMatchObject({
      url: PUBLIC_HOOK,
      pending_update_count: 0,
      last_error_message: "Wrong response from the webhook: 503 Service Unavailable",
    });
  });

  it("an update it cannot read: a warning naming the problem, and answered 200 (Telegram would only send it again)", async () => {
    const running = await t.start();
    t.fake.forwardWebhook(`${running.hooksUrl}/hooks/telegram/default`);
    const bad = t.fake.sendUnparseable();
    await waitFor(() => t.fake.state.pending.length === 0, { message: "the unreadable update confirmed" });
    expect(t.fake.webhookAttempts.map((a) => a.status)).toEqual([200]);
    expect(running.logs.at("warn").map((r) => r.message)).toEqual([
      expect.stringMatching(new RegExp(`^telegram: skipped a delivery it cannot read: update ${bad.update_id}: `)),
    ]);
    expect(running.events).toEqual([]);
  });

  it("a delivery while the channel is stopped is answered 503, and arrives once it runs again", async () => {
    const running = await startChannel(telegramChannel, {
      config: t.fake.config({ webhookUrl: PUBLIC_HOOK, secretToken: SECRET }),
      start: false,
    });
    try {
      t.fake.forwardWebhook(`${running.hooksUrl}/hooks/telegram/default`);
      await running.instance.start();
      await running.instance.stop();
      t.fake.userSends({ chatId: GROUP, from: ANN, text: "while stopped" });
      await waitFor(() => t.fake.webhookAttempts.length > 0, { message: "a delivery attempt" });
      expect(t.fake.webhookAttempts[0]?.status).toBe(503);
      await running.instance.start();
      await running.waitForEvent(isText("while stopped"));
      await waitFor(() => t.fake.state.pending.length === 0, { message: "the update confirmed" });
    } finally {
      await running.stop();
    }
  });
});
