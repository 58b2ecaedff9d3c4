import { describeChannelContract } from "@chorus/testkit/vitest";
import { zalouserChannel } from "./index.js";
import { ANN, fakeWorld, TEAM } from "./testing/fixture.js";
import { zaloIcon } from "./vocabulary.js";

// The whole channel contract against the fake Zalo, through the real zca-js: every reaction case
// the row "Zalo Personal" (no flags) makes relevant, checked against the icons the fake holds,
// restarts, inbound, faults, and the session's cookies and imei as canary secrets.
describeChannelContract("Zalo Personal: the channel contract", {
  plugin: zalouserChannel,
  stepTimeoutMs: 10_000,
  async setup() {
    const world = await fakeWorld();
    const { fake } = world;
    return {
      config: world.config(),
      linkAccount: world.link,
      conversation: { id: TEAM },
      secrets: world.secrets,
      unreachableConfig: world.unreachableConfig,
      botReactions: (ref) => fake.botReactions(ref.messageId),
      addForeignReaction: (ref, emoji) => fake.personReacts(ANN.id, ref.messageId, zaloIcon(emoji) ?? emoji),
      foreignReactions: (ref) => fake.reactionsBy(ref.messageId, ANN.id),
      userSends: async (text) => {
        await fake.personSends({ from: ANN.id, group: TEAM, text });
      },
      redeliverLast: () => fake.redeliverLast(),
      deliverUnparseable: () => fake.deliverUnparseable(),
      fault: (kind) => fake.fault(kind),
      heal: () => fake.heal(),
      close: () => fake.close(),
    };
  },
});
