import type { ChannelContractFixture } from "@chorus/testkit";
import { describeChannelContract } from "@chorus/testkit/vitest";
import { telegramChannel } from "./index.js";
import { createFakeTelegram, unreachableApiRoot } from "./testing/index.js";

/** A canary bot token in Telegram's shape (`<bot id>:<35 characters>`): it must never be reported. */
const CANARY = "987654321:AAcanaryTokenForTheContract_0123456";
const GROUP = -1001;
const ANN = { id: 501, is_bot: false as const, first_name: "Ann" };

/**
 * The fake Bot API as a whole-channel contract fixture, in long-polling mode (the default, and
 * the mode with a connection to lose): people's messages reach the bot through `getUpdates`, a
 * redelivery repeats the last update whatever the offset, faults are testkit's `outage` on every
 * Bot API call. Polling registers no webhook route, which the contract checks; the forged
 * webhook of webhook mode is tested in `webhook.test.ts`.
 */
async function telegramFixture(): Promise<ChannelContractFixture> {
  const fake = createFakeTelegram({ token: CANARY });
  await fake.start();
  fake.addChat({ id: GROUP, type: "supergroup", title: "Team" });
  // Short timeouts, so a platform that hangs fails a call within the suite's step.
  const config = (apiRoot: string) =>
    fake.config({ apiRoot, retries: 1, timeoutMs: 500, reconnectMinMs: 20, reconnectMaxMs: 200 });
  const unreachable = await unreachableApiRoot();
  const chat = (ref: { data?: { readonly [k: string]: unknown } }) => Number(ref.data?.chatId);
  return {
    config: config(fake.url),
    conversation: { id: String(GROUP) },
    secrets: [CANARY],
    unreachableConfig: () => config(unreachable),
    botReactions: (ref) => fake.botReactions(chat(ref), Number(ref.messageId)),
    addForeignReaction: (ref, emoji) => {
      fake.userReacts(chat(ref), Number(ref.messageId), ANN, [emoji.replace(/\uFE0F/g, "")]);
    },
    foreignReactions: (ref) => fake.reactionsBy(chat(ref), Number(ref.messageId), ANN.id),
    userSends: (text) => {
      fake.userSends({ chatId: GROUP, from: ANN, text });
    },
    redeliverLast: () => {
      fake.redeliverLast();
    },
    deliverUnparseable: () => {
      fake.sendUnparseable();
    },
    fault: (kind) => fake.fault(kind),
    heal: () => fake.heal(),
    close: () => fake.close(),
  };
}

describeChannelContract("Telegram: the whole channel contract (long polling)", {
  plugin: telegramChannel,
  setup: telegramFixture,
  stepTimeoutMs: 10_000,
});
