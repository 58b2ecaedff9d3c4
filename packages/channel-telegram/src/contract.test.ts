import type { ChannelContractFixture } from "@chorus/testkit";
import { describeChannelContract } from "@chorus/testkit/vitest";
import type { Update } from "grammy/types";
import { telegramChannel } from "./index.js";
import { createFakeTelegram, unreachableApiRoot } from "./testing/index.js";

/** A canary bot token in Telegram's shape (`<bot id>:<35 characters>`): it must never be reported. */
const CANARY = "987654321:AAcanaryTokenForTheContract_0123456";
const GROUP = -1001;
const ANN = { id: 501, is_bot: false as const, first_name: "Ann" };

/** The webhook URL the bot sets in webhook mode (public: the fake forwards it to the running instance). */
const PUBLIC_HOOK = "https://bot.example.com/hooks/telegram/default";
const SECRET_TOKEN = "contract_secret-token";

/**
 * The fake Bot API as a whole-channel contract fixture. In long-polling mode (the default, and
 * the mode with a connection to lose) people's messages reach the bot through `getUpdates`, and
 * polling registers no webhook route, which the contract checks. In webhook mode Telegram pushes
 * them to the webhook (forwarded to the running instance, as a reverse proxy would) and retries a
 * delivery that was not answered 2xx. Either way a redelivery repeats the last update whatever
 * was confirmed, and faults are testkit's `outage` on every Bot API call. Media: what the bot sent
 * is read back from the fake's messages and files (an album's items together), what a person
 * sends is stored and delivered in Telegram's shapes, and the file endpoint counts its bytes.
 */
async function telegramFixture(mode: "polling" | "webhook"): Promise<ChannelContractFixture> {
  const fake = createFakeTelegram({ token: CANARY, webhookRetry: { delayMs: 20, attempts: 100 } });
  await fake.start();
  fake.addChat({ id: GROUP, type: "supergroup", title: "Team" });
  const webhook = mode === "webhook" ? { webhookUrl: PUBLIC_HOOK, secretToken: SECRET_TOKEN } : {};
  // Short timeouts, so a platform that hangs fails a call within the suite's step.
  const config = (apiRoot: string) =>
    fake.config({ apiRoot, retries: 1, timeoutMs: 500, reconnectMinMs: 20, reconnectMaxMs: 200, ...webhook });
  /** In webhook mode, Telegram's deliveries reach the running instance's route. */
  const reach = (hooksUrl: string) => {
    const route = `${hooksUrl}/hooks/telegram/default`;
    if (mode === "webhook" && fake.webhookForward !== route) fake.forwardWebhook(route);
  };
  const unreachable = await unreachableApiRoot();
  const chat = (ref: { data?: { readonly [k: string]: unknown } }) => Number(ref.data?.chatId);
  return {
    config: config(fake.url),
    conversation: { id: String(GROUP) },
    secrets: mode === "webhook" ? [CANARY, SECRET_TOKEN] : [CANARY],
    unreachableConfig: () => config(unreachable),
    botReactions: (ref) => fake.botReactions(chat(ref), Number(ref.messageId)),
    addForeignReaction: (ref, emoji) => {
      fake.userReacts(chat(ref), Number(ref.messageId), ANN, [emoji.replace(/\uFE0F/g, "")]);
    },
    foreignReactions: (ref) => fake.reactionsBy(chat(ref), Number(ref.messageId), ANN.id),
    userSends: (text, hooksUrl) => {
      reach(hooksUrl);
      fake.userSends({ chatId: GROUP, from: ANN, text });
    },
    redeliverLast: (hooksUrl) => {
      reach(hooksUrl);
      fake.redeliverLast();
    },
    deliverUnparseable: (hooksUrl) => {
      reach(hooksUrl);
      fake.sendUnparseable();
    },
    ...(mode === "webhook"
      ? {
          // An update no one queued (so Telegram never delivers it), posted with a wrong secret token.
          forgeWebhook: async (hooksUrl: string, text: string) => {
            const message = fake.state.postMessage(GROUP, ANN, { text });
            const update = { update_id: 1, message } as Update;
            const url = `${hooksUrl}/hooks/telegram/default`;
            return (await fake.deliver(url, update, { secretToken: "forged_token" })).status;
          },
        }
      : {}),
    fault: (kind) => fake.fault(kind),
    heal: () => fake.heal(),
    close: () => fake.close(),
    media: {
      sentMessage: (ref) => fake.messageMedia(chat(ref), Number(ref.messageId)),
      botMessageCount: () => fake.botMessages(GROUP).length,
      userSendsMedium: (sample, hooksUrl) => {
        reach(hooksUrl);
        fake.userSendsMedium({ chatId: GROUP, from: ANN, sample });
      },
      bytesServed: () => fake.files.bytesServed,
    },
  };
}

describeChannelContract("Telegram: the whole channel contract (long polling)", {
  plugin: telegramChannel,
  setup: () => telegramFixture("polling"),
  stepTimeoutMs: 10_000,
});

describeChannelContract("Telegram: the whole channel contract (webhook)", {
  plugin: telegramChannel,
  setup: () => telegramFixture("webhook"),
  stepTimeoutMs: 10_000,
});
