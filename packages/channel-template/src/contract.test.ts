import { describeReactionContract } from "@chorus/testkit/vitest";
import { acmeChannel } from "./index.js";
import { createFakeAcme } from "./testing/index.js";

// The suite every channel runs: each DESIGN §2.2 case its declared flags make relevant,
// checked against the reactions the fake Acme really holds afterwards.
describeReactionContract("Acme Chat reaction contract", {
  plugin: acmeChannel,
  async setup() {
    const fake = createFakeAcme();
    await fake.start();
    fake.addConversation({
      id: "c_team",
      type: "group",
      name: "Team",
      members: [fake.bot, { id: "u_ann", name: "Ann" }],
    });
    return {
      config: fake.config(),
      conversation: { id: "c_team" },
      botReactions: (ref) => fake.botReactions(ref.messageId),
      addForeignReaction: (ref, emoji) => {
        fake.userReacts(ref.messageId, "u_ann", emoji);
      },
      foreignReactions: (ref) => fake.reactionsBy(ref.messageId, "u_ann"),
      close: () => fake.close(),
    };
  },
});
