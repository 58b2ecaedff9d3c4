import { closedPort } from "@chorus/testkit";
import { describeChannelContract } from "@chorus/testkit/vitest";
import { feishuChannel } from "./index.js";
import { createFakeFeishu } from "./testing/index.js";
import { feishuVocabulary } from "./vocabulary.js";

// Canary secrets: the suite fails if either shows up in any error, status, event or log line.
const APP_SECRET = "canary-feishu-app-secret-7c41d2";

/** The contract's emoji are unicode; people on Feishu react with emoji_types. */
const typeOf = (emoji: string) => feishuVocabulary.lookup(emoji) ?? emoji;

// The whole channel contract in the default mode, the long connection: every reaction case the
// flags make relevant (checked against the reactions the fake Feishu really holds), restarts,
// inbound over the SDK's WebSocket, faults, secrets and escaped errors.
describeChannelContract("Feishu: the channel contract (long connection)", {
  plugin: feishuChannel,
  stepTimeoutMs: 10_000,
  async setup() {
    // Feishu's own intervals are minutes; the fake tells the SDK to ping and reconnect quickly, and
    // delivers an unacknowledged event again sooner than Feishu's 3 s.
    const fake = createFakeFeishu({
      appSecret: APP_SECRET,
      clientConfig: { PingInterval: 1, ReconnectInterval: 0.1, ReconnectNonce: 0 },
      ackTimeoutMs: 300,
    });
    await fake.start();
    const ann = fake.addUser("Ann");
    const chat = fake.addChat({ name: "Team", members: [ann] });
    // Short timeouts, so a platform that hangs fails a call quickly instead of holding the suite.
    const config = (domain: string) => fake.config({ domain, retries: 1, timeoutMs: 1_000, reconnectMinMs: 50 });
    const unreachable = `http://127.0.0.1:${await closedPort()}`;
    return {
      config: config(fake.url),
      conversation: { id: chat.chat_id },
      secrets: [APP_SECRET],
      unreachableConfig: () => config(unreachable),
      botReactions: (ref) => fake.botReactions(ref.messageId),
      addForeignReaction: (ref, emoji) => fake.userReacts(ref.messageId, ann, typeOf(emoji)),
      foreignReactions: (ref) => fake.reactionsBy(ref.messageId, ann.open_id),
      userSends: async (text) => {
        await fake.userSends({ chatId: chat.chat_id, from: ann, text });
      },
      redeliverLast: () => fake.redeliverLast(),
      deliverUnparseable: () => fake.deliverUnparseable(),
      fault: (kind) => fake.fault(kind),
      heal: () => fake.heal(),
      close: () => fake.close(),
    };
  },
});
