import { type ChannelContractFixture, closedPort } from "@chorus/testkit";
import { describeChannelContract } from "@chorus/testkit/vitest";
import { imessageChannel } from "./index.js";
import { createFakeBlueBubbles } from "./testing/index.js";
import { imessageVocabulary } from "./vocabulary.js";

const GROUP = "iMessage;+;chat100200300";
const ANN = "+15550001111";
const CANARY_PASSWORD = "canary-bluebubbles-password-5d1e";
const CANARY_SECRET = "canary-webhook-secret-93ab71c0";

/** The fake BlueBubbles server as a whole-channel contract fixture, with canary secrets. */
async function blueBubblesFixture(): Promise<ChannelContractFixture> {
  const fake = createFakeBlueBubbles({ password: CANARY_PASSWORD });
  await fake.start();
  fake.addChat({ guid: GROUP, displayName: "Team", participants: [ANN, "+15550002222"] });
  // Short timeouts and backoff, so a hung or lost server ends each step quickly.
  const config = (serverUrl: string) => ({
    serverUrl,
    password: CANARY_PASSWORD,
    webhookSecret: CANARY_SECRET,
    retries: 1,
    timeoutMs: 400,
    reconnectMinMs: 20,
    reconnectMaxMs: 200,
  });
  const unreachable = `http://127.0.0.1:${await closedPort()}`;
  return {
    config: config(fake.url),
    conversation: { id: GROUP },
    secrets: [CANARY_PASSWORD, CANARY_SECRET],
    unreachableConfig: () => config(unreachable),
    createMessage: (instance, index) => {
      const { guid } = fake.userSends({ chatGuid: GROUP, from: ANN, text: `contract target ${index}` });
      return instance.resolveMessageRef({ id: GROUP }, guid);
    },
    botReactions: (ref) => fake.botTapbacks(ref.messageId),
    addForeignReaction: (ref, emoji) => {
      fake.userTapback({ messageGuid: ref.messageId, from: ANN, reaction: imessageVocabulary.lookup(emoji) ?? emoji });
    },
    foreignReactions: (ref) => fake.tapbacksBy(ref.messageId, ANN),
    userSends: async (text) => {
      await fake.deliver(fake.userSends({ chatGuid: GROUP, from: ANN, text }));
    },
    redeliverLast: async () => {
      await fake.redeliverLast();
    },
    deliverUnparseable: async () => {
      await fake.deliverUnparseable();
    },
    forgeWebhook: (hooksUrl, text) => fake.forgeWebhook(`${hooksUrl}/hooks/imessage/default`, text),
    fault: (kind) => fake.outage(kind),
    heal: () => fake.heal(),
    close: () => fake.close(),
  };
}

// The whole channel contract against the tapbacks, webhooks and faults of the fake BlueBubbles server.
describeChannelContract("iMessage: the whole channel contract", {
  plugin: imessageChannel,
  setup: blueBubblesFixture,
  stepTimeoutMs: 10_000,
});
