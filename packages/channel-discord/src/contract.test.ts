import { type ChannelContractFixture, closedPort } from "@chorus/testkit";
import { describeChannelContract } from "@chorus/testkit/vitest";
import { discordChannel } from "./index.js";
import { ANN, annSends, FAST, shownMedia, startFakeDiscord } from "./test-support.test-util.js";

/** The bot token of the run: it must never show up in an error, a status, an event or a log line. */
const CANARY = "canary-discord-token.MTA5ODc2.5e1d0c9a";

/**
 * The fake Discord as a whole-channel contract fixture: people write in #general (MESSAGE_CREATE
 * on the gateway), a redelivery is the same dispatch again, and a fault hits REST and the gateway
 * WebSocket at once. Media: what the bot uploaded is read from the fake's messages, people's files,
 * voice messages and stickers are delivered over the gateway, downloads come from the fake CDN.
 */
async function discordFixture(): Promise<ChannelContractFixture> {
  const fake = await startFakeDiscord({ token: CANARY });
  const cdn = { cdnUrl: fake.cdn.url, mediaProxyUrl: fake.cdn.mediaUrl };
  // discord.js allows itself 50 requests a second; the concurrency case can meet that limit just
  // after other cases, and its wait (about a second) must be sat out, not refused.
  const config = (apiRoot: string) => ({ token: CANARY, apiRoot, ...cdn, ...FAST, maxRetryAfterMs: 5_000 });
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
    media: {
      sentMessage: (ref) => {
        const message = fake.state.messages.get(ref.messageId);
        if (!message) throw new Error(`fake Discord: no message ${ref.messageId}`);
        return shownMedia(message);
      },
      botMessageCount: () => fake.messagesIn("200").filter((m) => m.author.id === fake.bot.id).length,
      userSendsMedium: (sample) => {
        annSends(fake, sample);
      },
      bytesServed: () => fake.cdn.bytesServed,
    },
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
