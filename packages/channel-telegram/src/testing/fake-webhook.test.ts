import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { waitFor } from "@chorus/testkit";
import { Api } from "grammy";
import { afterEach, describe, expect, it } from "vitest";
import { createFakeTelegram, type FakeTelegram } from "./index.js";

const ANN = { id: 501, is_bot: false as const, first_name: "Ann" };
const CHAT = -1001;

/** A bot's webhook on 127.0.0.1 that answers each delivery with the next status of `statuses` (then 200). */
async function webhook(statuses: number[]): Promise<{ url: string; server: Server; bodies: unknown[] }> {
  const bodies: unknown[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      res.writeHead(statuses.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, server, bodies };
}

describe("the fake's webhook deliveries retry what was not answered 2xx, as Telegram does", () => {
  let fake: FakeTelegram | undefined;
  let server: Server | undefined;
  afterEach(async () => {
    await fake?.close();
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  });

  async function start(statuses: number[], attempts = 10) {
    const hook = await webhook(statuses);
    server = hook.server;
    const telegram = createFakeTelegram({ webhookRetry: { delayMs: 10, attempts } });
    fake = telegram;
    await telegram.start();
    telegram.addChat({ id: CHAT, type: "supergroup", title: "Team" });
    const api = new Api(telegram.token, { apiRoot: telegram.url });
    await api.setWebhook(hook.url);
    return { telegram, hook, api };
  }

  it("a 503 is delivered again until a 2xx confirms it; getWebhookInfo reports the last error", async () => {
    const { telegram, hook, api } = await start([503, 500]);
    telegram.userSends({ chatId: CHAT, from: ANN, text: "hello" });
    const id = telegram.state.last?.update_id;
    await waitFor(() => telegram.state.pending.length === 0, { message: "the update confirmed" });
    expect(telegram.webhookAttempts.map((a) => [a.updateId, a.status, a.attempt])).toEqual([
      [id, 503, 1],
      [id, 500, 2],
      [id, 200, 3],
    ]);
    expect(hook.bodies.map((b) => (b as { update_id: number }).update_id)).toEqual([id, id, id]);
    expect(await api.getWebhookInfo()).toMatchObject({
      pending_update_count: 0,
      last_error_message: "Wrong response from the webhook: 500 Internal Server Error",
    });
  });

  it("gives up after `attempts` deliveries and drops the update", async () => {
    const { telegram } = await start([503, 503, 503], 2);
    telegram.userSends({ chatId: CHAT, from: ANN, text: "lost" });
    await waitFor(() => telegram.abandonedUpdates.length === 1, { message: "the update given up" });
    expect(telegram.webhookAttempts.map((a) => a.status)).toEqual([503, 503]);
    expect(telegram.state.pending).toEqual([]);
  });

  it("a 2xx confirms only its own update, and each update is delivered once at a time", async () => {
    const { telegram } = await start([503]);
    telegram.userSends({ chatId: CHAT, from: ANN, text: "first" });
    telegram.userSends({ chatId: CHAT, from: ANN, text: "second" });
    await waitFor(() => telegram.state.pending.length === 0, { message: "both confirmed" });
    const [first, second] = telegram.state.last
      ? [telegram.state.last.update_id - 1, telegram.state.last.update_id]
      : [];
    expect(telegram.webhookAttempts.filter((a) => a.updateId === first).map((a) => a.status)).toEqual([503, 200]);
    expect(telegram.webhookAttempts.filter((a) => a.updateId === second).map((a) => a.status)).toEqual([200]);
  });

  it("never leaves this machine: a public webhook URL fails like an unreachable server until it is forwarded", async () => {
    const hook = await webhook([]);
    server = hook.server;
    const telegram = createFakeTelegram({ webhookRetry: { delayMs: 10, attempts: 100 } });
    fake = telegram;
    await telegram.start();
    telegram.addChat({ id: CHAT, type: "supergroup", title: "Team" });
    await new Api(telegram.token, { apiRoot: telegram.url }).setWebhook("https://bot.example.com/hook");
    telegram.userSends({ chatId: CHAT, from: ANN, text: "hello" });
    await waitFor(() => telegram.webhookAttempts.length > 0, { message: "a first attempt" });
    expect(telegram.webhookAttempts[0]).toMatchObject({ url: "https://bot.example.com/hook", status: 0 });
    telegram.forwardWebhook(hook.url);
    await waitFor(() => telegram.state.pending.length === 0, { message: "delivered through the forward" });
    expect(hook.bodies).toHaveLength(1);
  });
});
