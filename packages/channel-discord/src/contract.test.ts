import { describeReactionContract } from "@chorus/testkit/vitest";
import { discordChannel } from "./index.js";
import { createFakeDiscord } from "./testing/index.js";

const ANN = { id: "700000000000000001", username: "ann", global_name: "Ann" };

// Every DESIGN §2.2 case the Discord flags (clearAll, list) make relevant, checked against the
// reactions the fake Discord really holds afterwards — through the real discord.js Client.
describeReactionContract("Discord reaction contract", {
  plugin: discordChannel,
  async setup() {
    const fake = createFakeDiscord();
    await fake.start();
    fake.addGuild({ id: "100", name: "Team", channels: [{ id: "200", name: "general" }] });
    fake.addMember("100", ANN);
    return {
      config: fake.config(),
      conversation: { id: "200" },
      botReactions: (ref) => fake.botReactions(ref.messageId),
      addForeignReaction: (ref, emoji) => {
        fake.userReacts(ref.messageId, ANN, { id: null, name: emoji });
      },
      foreignReactions: (ref) => fake.reactionsBy(ref.messageId, ANN.id),
      close: () => fake.close(),
    };
  },
});
