import { type ChannelContractFixture, closedPort } from "@chorus/testkit";
import { describeChannelContract } from "@chorus/testkit/vitest";
import { discordChannel } from "./index.js";
import { ANN, FAST, startFakeDiscord } from "./test-support.test-util.js";

/** The bot token of the run: it must never show up in an error, a status, an event or a log line. */
const CANARY = "canary-discord-token.MTA5ODc2.5e1d0c9a";

/**
 * The fake Discord as a whole-channel contract fixture: people write in #general (MESSAGE_CREATE
 * on the gateway), a redelivery is the same dispatch again, and a fault hits REST and the gateway
 * WebSocket at once.
 */
async function discordFixture(): Promise<ChannelContractFixture> {
  const fake = await startFakeDiscord({ token: CANARY });
  const config = (apiRoot: string) => ({ token: CANARY, apiRoot, ...FAST });
  const unreachable = `http://127.0.0.1:${await closedPort()}/api`;
  return {
    config: config(`${fake.url}/api`),
    conversation: { id: "200" },
    secrets: [CANARY],
    unreachableConfig: () => config(unreachable),
    botReactions: (ref) => fake.botReactions(ref.messageId),
    addForeignReaction: (ref, emoji) => fake.userReacts(ref.messageId, ANN, { id: null, name: emoji }),
    foreignReactions: (ref) => fake.reactionsBy(ref.messageId, ANN.id),
    userSends: (text) => {
      fake.userSends({ channelId: "200", author: ANN, content: text });
    },
    redeliverLast: () => fake.redeliverLast(),
    deliverUnparseable: () => fake.deliverUnparseable("200"),
    fault: (kind) => fake.fault(kind),
    heal: () => fake.heal(),
    close: () => fake.close(),
  };
}

// Every DESIGN §2.2 case the Discord flags (clearAll, list) make relevant, restarts, inbound,
// faults of REST and gateway, secrets, and nothing escaping the plugin: through the real
// discord.js Client against the fake Discord.
describeChannelContract("Discord: the whole channel contract", {
  plugin: discordChannel,
  setup: discordFixture,
  stepTimeoutMs: 10_000,
});
