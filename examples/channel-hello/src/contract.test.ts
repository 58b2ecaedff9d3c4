import { closedPort, createMemoryPlatform, outage } from "@chorus/testkit";
import { describeChannelContract } from "@chorus/testkit/vitest";
import { helloChannel } from "./index.js";

// A canary secret: the suite fails if it shows up in any error, status, event or log line.
const TOKEN = "canary-hello-token-3c9e1d";

// The whole channel contract against testkit's memory platform: reactions (checked against what
// the platform holds), restarts, inbound (a refused commit included), faults, secrets, escapes.
describeChannelContract("Hello: the channel contract", {
  plugin: helloChannel,
  stepTimeoutMs: 10_000,
  async setup() {
    const platform = createMemoryPlatform({ token: TOKEN });
    await platform.start();
    platform.addConversation({ id: "c1", kind: "group", title: "Hello", members: [{ id: "ann", name: "Ann" }] });
    // Short polls and timeouts, so a platform that hangs fails a step quickly.
    const config = (baseUrl: string) => ({ baseUrl, token: TOKEN, pollWaitMs: 200, retries: 1, timeoutMs: 500 });
    const unreachable = `http://127.0.0.1:${await closedPort()}`;
    return {
      config: config(platform.url),
      conversation: { id: "c1" },
      secrets: [TOKEN],
      unreachableConfig: () => config(unreachable),
      botReactions: (ref) => platform.botReactions(ref.messageId),
      addForeignReaction: (ref, emoji) => platform.userReacts(ref.messageId, "ann", emoji),
      foreignReactions: (ref) => platform.state.reactionsBy(ref.messageId, "ann"),
      userSends: (text) => {
        platform.userSends({ conversationId: "c1", senderId: "ann", text });
      },
      redeliverLast: () => platform.redeliver(),
      deliverUnparseable: () => platform.deliverRaw({ id: "evt-broken", type: "message", message: { id: 42 } }),
      fault: (kind) => platform.server.inject(outage(kind)),
      heal: () => platform.server.clearFaults(),
      close: () => platform.close(),
    };
  },
});
